// Chapter 06: CUDA weighted Jacobi, shared memory: x rows staged on chip.
// New in this chapter: kernels/jacobi/cuda/06_shared.cu (05_pitched.cu with the block's x values,
// rows j-1..j+1 and a halo column on each side, loaded into shared memory with coalesced reads before
// the update), and kernels/jacobi/cuda/06_shared_paper.cu (the same tile loaded as the paper's
// Fig. 15 does: own column aligned, the halo by the first and last thread), on chapter 05's host
// code; chapter 05's kernel runs first, for comparison.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "pitched_variant.hpp"
#include "shared_variant.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"06", "ch06_cuda_shared", "CUDA weighted Jacobi, shared memory: x rows staged on chip",
                               "paper 000, section 6.4 (Figs. 15-16), Tables 2, 3, 5, 7 and 8"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    ch03::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, ch03::chapter_settings(options, /*width_sweep=*/true));
    ch03::add_options(chapter.cli(), options);
    chapter.add(ch05::pitched_variant(options.launch));
    chapter.add(ch06::shared_variant(options.launch));
    chapter.add(ch06::shared_paper_variant(options.launch));
    return chapter.run(argc, argv);
  });
}
