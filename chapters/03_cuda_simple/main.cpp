// Chapter 03: CUDA weighted Jacobi, simple: the CPU layout on the GPU.
// New in this chapter: kernels/cuda/01_jacobi_simple.cu
// (the paper's first CUDA kernel: one thread per unknown, nine diagonal arrays and the nx+1 ghost
// elements of chapter 01, a 1D grid of 64-thread blocks.)
// Everything else (options, GPU and copy-bandwidth limit, reference, CPU baseline, tables) is the
// experiment flow all CUDA chapters share: chapters/cuda_common/cuda_chapter.hpp.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"

int main(int argc, char** argv) {
  const cuda_chapter::ChapterSpec spec{
      {"03", "ch03_cuda_simple", "CUDA weighted Jacobi, simple: the CPU layout on the GPU",
       "paper 000, section 6.1 (Figs. 10-12), Tables 1 and 3"},
      {"simple"},
      /*width_sweep=*/true};
  return gpgpu::run_main(spec.info.program, [&] { return cuda_chapter::run(argc, argv, spec); });
}
