// Chapter 04: CUDA weighted Jacobi, aligned: the ghost offset rounded up to the coalescing width.
// New in this chapter: kernels/cuda/02_jacobi_aligned.cu
// (kernel 01 with the ghost offset rounded up to a multiple of 16 floats (the paper's 64-byte
// half-warp segment) and of 32 floats (today's 128-byte line); chapter 03's kernel runs beside them.)
// Everything else (options, GPU and copy-bandwidth limit, reference, CPU baseline, tables) is the
// experiment flow all CUDA chapters share: chapters/cuda_common/cuda_chapter.hpp.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"

int main(int argc, char** argv) {
  const cuda_chapter::ChapterSpec spec{
      {"04", "ch04_cuda_aligned", "CUDA weighted Jacobi, aligned: the ghost offset rounded up to the coalescing width",
       "paper 000, section 6.2 (Fig. 13), Table 1"},
      {"simple", "aligned", "aligned32"},
      /*width_sweep=*/true};
  return gpgpu::run_main(spec.info.program, [&] { return cuda_chapter::run(argc, argv, spec); });
}
