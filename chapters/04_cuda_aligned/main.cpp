// Chapter 04: CUDA weighted Jacobi, aligned: the ghost offset rounded up to the coalescing width.
// New in this chapter: kernels/jacobi/cuda/04_aligned.cu (03_simple.cu with the ghost offset a
// parameter), run with the offset rounded up to a multiple of 16 floats (the paper's 64-byte
// half-warp segment) and of 32 floats (today's 128-byte line), on chapter 03's host code
// (aligned_variants.cpp); chapter 03's kernel runs first, for comparison.
#include "aligned_variants.hpp"
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "simple_variant.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"04", "ch04_cuda_aligned",
                               "CUDA weighted Jacobi, aligned: the ghost offset rounded up to the coalescing width",
                               "paper 000, section 6.2 (Fig. 13), Table 1"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    ch03::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, ch03::chapter_settings(options, /*width_sweep=*/true));
    ch03::add_options(chapter.cli(), options);
    chapter.add(ch03::simple_variant(options.launch));
    chapter.add(ch04::aligned_variant(options.launch));
    chapter.add(ch04::aligned32_variant(options.launch));
    return chapter.run(argc, argv);
  });
}
