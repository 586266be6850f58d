// Chapter 09: matrix add and transpose in CUDA and OpenCL (paper 003, secs. 5.1-5.6 and 6.4-6.6):
// access order (row- against column-major), coalescing through on-chip memory, bank conflicts,
// and what each API costs to start. Every variant the run knows, in run order: each list is in the
// file of its name, beside the host code that launches it. The run (gpgpu::matrix::Chapter)
// verifies every variant bit for bit against the CPU reference and judges it against the bandwidth
// its device reaches for the same read:write mix, measured now; --sweep runs the paper's sizes
// 16 ... 4096 (and beyond) instead.
#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/chapter.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"09", "ch09_matrix_add_transpose",
                               "Matrix add and transpose in CUDA and OpenCL: access order, on-chip tiles, bank conflicts",
                               "paper 003 (CUDA vs OpenCL), secs. 5.1-5.6 and 6.4-6.6, Obr. 11-20, Tabs. 8-10"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::matrix::Chapter chapter(kInfo, {.sweep = true});
    chapter.add(ch09::cpu_variants());     // cpu_add, cpu_add_openmp, cpu_transpose_blocked
    chapter.add(ch09::cuda_variants());    // the kernels of kernels/matrix/cuda, then cuda_memcpy
    chapter.add(ch09::cublas_variants());  // cuda_geam_add, cuda_geam_transpose
    chapter.add(ch09::opencl_variants());  // their ports in kernels/matrix/opencl, then cl_copy
    return chapter.run(argc, argv);
  });
}
