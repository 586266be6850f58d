// Chapter 05: CUDA weighted Jacobi, pitched: cudaMallocPitch and a 2D grid.
// New in this chapter: kernels/jacobi/cuda/05_pitched.cu and its host code, pitched_solver.cpp:
// every array from cudaMallocPitch (aligned rows for every width), two ghost rows, a 2D grid of 1D
// blocks; chapter 04's aligned kernel runs first, for comparison.
#include "aligned_variants.hpp"
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "pitched_variant.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"05", "ch05_cuda_pitched", "CUDA weighted Jacobi, pitched: cudaMallocPitch and a 2D grid",
                               "paper 000, section 6.3 (Fig. 14), Tables 1 and 2 (\"CUDA 2D\")"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    ch03::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, ch03::chapter_settings(options, /*width_sweep=*/true));
    ch03::add_options(chapter.cli(), options);
    chapter.add(ch04::aligned_variant(options.launch));
    chapter.add(ch05::pitched_variant(options.launch));
    return chapter.run(argc, argv);
  });
}
