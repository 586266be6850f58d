// Chapter 07b: Past the paper: read-only loads, 2D tiles, several points per thread, symmetric storage.
// New in this chapter: kernels/cuda/06_jacobi_readonly.cu ... 09_jacobi_symmetric.cu
// (four steps past the paper towards the memory-bandwidth floor: read-only loads (06), 2D blocks
// with a shared-memory halo (07), four columns and several rows per thread in registers (08), and
// the symmetric storage of 5 of the 9 diagonals (09); chapter 07's texture kernel runs first.)
// Everything else (options, GPU and copy-bandwidth limit, reference, CPU baseline, tables) is the
// experiment flow all CUDA chapters share: chapters/cuda_common/cuda_chapter.hpp.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"

int main(int argc, char** argv) {
  const cuda_chapter::ChapterSpec spec{
      {"07b", "ch07b_cuda_past_the_paper", "Past the paper: read-only loads, 2D tiles, several points per thread, symmetric storage",
       "paper 000, conclusion (future work: symmetric storage, 2D blocks), on today's GPU"},
      {"texture", "readonly", "tiled2d", "multirow", "symmetric"},
      /*width_sweep=*/false};
  return gpgpu::run_main(spec.info.program, [&] { return cuda_chapter::run(argc, argv, spec); });
}
