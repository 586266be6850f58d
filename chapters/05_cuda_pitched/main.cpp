// Chapter 05: CUDA weighted Jacobi, pitched: cudaMallocPitch and a 2D grid.
// New in this chapter: kernels/cuda/03_jacobi_pitched.cu
// (every array from cudaMallocPitch (aligned rows for every width), a 2D grid of 1D blocks and two
// ghost rows; chapter 04's aligned kernel runs beside it.)
// Everything else (options, GPU and copy-bandwidth limit, reference, CPU baseline, tables) is the
// experiment flow all CUDA chapters share: chapters/cuda_common/cuda_chapter.hpp.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"

int main(int argc, char** argv) {
  const cuda_chapter::ChapterSpec spec{
      {"05", "ch05_cuda_pitched", "CUDA weighted Jacobi, pitched: cudaMallocPitch and a 2D grid",
       "paper 000, section 6.3 (Fig. 14), Tables 1 and 2 (\"CUDA 2D\")"},
      {"aligned", "pitched"},
      /*width_sweep=*/true};
  return gpgpu::run_main(spec.info.program, [&] { return cuda_chapter::run(argc, argv, spec); });
}
