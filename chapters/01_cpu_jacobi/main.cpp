// Chapter 01: weighted Jacobi for the bidomain FEM system on the CPU, in the paper's two storage
// layouts (separate diagonals, interleaved rows), on one thread as in the paper and on every core
// with OpenMP. The run (gpgpu::jacobi::Chapter) verifies each against the double-precision
// reference and judges it against the host's bandwidth for the same read:write mix, measured now.
#include <memory>

#include "cpu_jacobi.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "01", "ch01_cpu_jacobi", "CPU weighted Jacobi: separate diagonals and interleaved rows, serial and OpenMP",
    "paper 000 (weighted Jacobi for the bidomain equations), sections 2-4, Tables 3, 4 and 6"};

// One variant: a layout (Solver) on one thread (the paper's CPU code) or on --threads threads.
template <typename Solver>
gpgpu::jacobi::VariantSpec cpu_variant(std::string name, std::string layout, std::string source, bool parallel) {
  gpgpu::jacobi::VariantSpec v;
  v.info = {std::move(name), gpgpu::Backend::cpu, layout + (parallel ? ", OpenMP" : ", one thread"),
            "chapters/01_cpu_jacobi/" + source, "CPU"};
  v.driver = gpgpu::cpu_driver;
  v.timer = "steady_clock";
  v.threads = parallel ? 0 : 1;
  v.make = [parallel](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& cpu) {
    return std::make_unique<Solver>(sys, parallel ? gpgpu::cpu_threads(cpu) : 1);
  };
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::jacobi::Chapter chapter(kInfo, {.host_bytes_per_node = ch01::kHostBytesPerNode});
    using ch01::InterleavedRowsSolver, ch01::SeparateDiagonalsSolver;
    const char* separate = "nine separate diagonal arrays (paper Fig. 2)";
    const char* interleaved = "interleaved rows (paper Fig. 4)";
    chapter.add(cpu_variant<SeparateDiagonalsSolver>("separate", separate, "jacobi_separate.cpp", false));
    chapter.add(cpu_variant<InterleavedRowsSolver>("interleaved", interleaved, "jacobi_interleaved.cpp", false));
    chapter.add(cpu_variant<SeparateDiagonalsSolver>("separate_openmp", separate, "jacobi_separate.cpp", true));
    chapter.add(cpu_variant<InterleavedRowsSolver>("interleaved_openmp", interleaved, "jacobi_interleaved.cpp", true));
    return chapter.run(argc, argv);
  });
}
