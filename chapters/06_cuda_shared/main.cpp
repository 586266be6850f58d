// Chapter 06: CUDA weighted Jacobi, shared memory: x rows staged on chip.
// New in this chapter: kernels/cuda/04_jacobi_shared.cu
// (kernel 03 with the block's x values (rows j-1..j+1 and a halo column on each side) loaded into
// shared memory with coalesced reads before the update; chapter 05's kernel runs beside it.)
// Everything else (options, GPU and copy-bandwidth limit, reference, CPU baseline, tables) is the
// experiment flow all CUDA chapters share: chapters/cuda_common/cuda_chapter.hpp.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"

int main(int argc, char** argv) {
  const cuda_chapter::ChapterSpec spec{
      {"06", "ch06_cuda_shared", "CUDA weighted Jacobi, shared memory: x rows staged on chip",
       "paper 000, section 6.4 (Figs. 15-16), Tables 2, 3, 5, 7 and 8"},
      {"pitched", "shared"},
      /*width_sweep=*/true};
  return gpgpu::run_main(spec.info.program, [&] { return cuda_chapter::run(argc, argv, spec); });
}
