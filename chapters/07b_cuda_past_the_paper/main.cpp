// Chapter 07b: Past the paper: read-only loads, 2D tiles, several points per thread, symmetric storage.
// New in this chapter: four kernels past the paper towards the memory-bandwidth floor, all on
// chapter 05's pitched layout: read-only loads (kernels/jacobi/cuda/07b_readonly.cu), 2D blocks with a
// shared-memory halo (07b_tiled2d.cu), four columns and several rows per thread in registers
// (07b_multirow.cu), and the symmetric storage of 5 of the 9 diagonals (07b_symmetric.cu); their
// launches, and the tuning of the last two, in past_the_paper_solvers.cpp. Chapter 07's texture
// kernel runs first, for comparison.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "past_the_paper_variants.hpp"
#include "texture_variant.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "07b", "ch07b_cuda_past_the_paper",
    "Past the paper: read-only loads, 2D tiles, several points per thread, symmetric storage",
    "paper 000, conclusion (future work: symmetric storage, 2D blocks), on today's GPU"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    ch03::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, ch03::chapter_settings(options, /*width_sweep=*/false));
    ch03::add_options(chapter.cli(), options);
    chapter.add(ch07::texture_variant(options.launch));
    chapter.add(ch07b::readonly_variant(options.launch));
    chapter.add(ch07b::tiled2d_variant(options.launch));
    chapter.add(ch07b::multirow_variant(options.launch));
    chapter.add(ch07b::symmetric_variant(options.launch));
    return chapter.run(argc, argv);
  });
}
