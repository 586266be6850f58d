// Chapter 07: CUDA weighted Jacobi, texture: x through texture objects.
// New in this chapter: kernels/cuda/05_jacobi_texture.cu
// (kernel 02 (1D, aligned offset) reading x through tex1Dfetch on texture objects over linear
// memory, one per ping-pong buffer; chapter 06's shared-memory kernel runs beside it.)
// Everything else (options, GPU and copy-bandwidth limit, reference, CPU baseline, tables) is the
// experiment flow all CUDA chapters share: chapters/cuda_common/cuda_chapter.hpp.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"

int main(int argc, char** argv) {
  const cuda_chapter::ChapterSpec spec{
      {"07", "ch07_cuda_texture", "CUDA weighted Jacobi, texture: x through texture objects",
       "paper 000, section 6.5 (Fig. 17), Tables 3, 5, 7 and 8"},
      {"shared", "texture"},
      /*width_sweep=*/false};
  return gpgpu::run_main(spec.info.program, [&] { return cuda_chapter::run(argc, argv, spec); });
}
