// Chapter 01: weighted Jacobi for the bidomain FEM system on the CPU, in the paper's two storage
// layouts, on one thread as in the paper and on every core with OpenMP. The variants this chapter
// runs, in order (their loops: problems/jacobi/cpu/src/):
//   separate            nine separate diagonal arrays (paper Fig. 2), one thread: separate_diagonals.cpp
//   interleaved         the nine coefficients of a row side by side (paper Fig. 4), one thread: interleaved_rows.cpp
//   separate_openmp     the first on every core (OpenMP)
//   interleaved_openmp  the second on every core
// `--threads 1,2,4` runs each OpenMP variant once per count (rows separate_openmp_t1, _t2, _t4), so
// one run shows where adding cores stops paying. The run (gpgpu::jacobi::Chapter) verifies each
// against the double-precision reference and judges it against the host's bandwidth for the same
// read:write mix, measured now.
#include <iostream>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "01", "ch01_cpu_jacobi", "CPU weighted Jacobi: separate diagonals and interleaved rows, serial and OpenMP",
    "paper 000 (weighted Jacobi for the bidomain equations), sections 2-4, Tables 3, 4 and 6"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    namespace cpu = gpgpu::jacobi::cpu;
    gpgpu::jacobi::Chapter chapter(kInfo, {.host_bytes_per_node = cpu::kHostBytesPerNode});
    chapter.add(cpu::cpu_variant("separate", cpu::kSeparateDiagonals, 1));
    chapter.add(cpu::cpu_variant("interleaved", cpu::kInterleavedRows, 1));
    chapter.add(cpu::cpu_variant("separate_openmp", cpu::kSeparateDiagonals, 0));
    chapter.add(cpu::cpu_variant("interleaved_openmp", cpu::kInterleavedRows, 0));
    // An OpenMP variant runs once per --threads count.
    return chapter.run(argc, argv, [&](std::ostream&, const std::vector<const gpgpu::jacobi::Variant*>& chosen) {
      return cpu::runs_per_count(chosen, *chapter.experiment().session(gpgpu::Backend::cpu));
    });
  });
}
