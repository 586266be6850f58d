// Chapter 07: CUDA weighted Jacobi, texture: x through texture objects.
// New in this chapter: kernels/jacobi/cuda/07_texture.cu (04_aligned.cu reading x through tex1Dfetch
// on texture objects over linear memory) and its host code, texture_solver.cpp (one texture object
// per ping-pong iterate over chapter 04's layout); chapter 06's shared-memory kernel runs first, for
// comparison.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "shared_variant.hpp"
#include "texture_variant.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"07", "ch07_cuda_texture", "CUDA weighted Jacobi, texture: x through texture objects",
                               "paper 000, section 6.5 (Fig. 17), Tables 3, 5, 7 and 8"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    ch03::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, ch03::chapter_settings(options, /*width_sweep=*/false));
    ch03::add_options(chapter.cli(), options);
    chapter.add(ch06::shared_variant(options.launch));
    chapter.add(ch07::texture_variant(options.launch));
    return chapter.run(argc, argv);
  });
}
