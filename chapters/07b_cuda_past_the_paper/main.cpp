// Chapter 07b: Past the paper: read-only loads, 2D tiles, several points per thread, symmetric storage.
// The variants this chapter runs, in order; the six new kernels all run on chapter 05's pitched
// layout. readonly and tiled2d are in cuda_variants.cpp; the row-walking kernels' variants, launches
// and tuning in problems/jacobi/cuda/src/row_walking_solver.cpp and problems/jacobi/src/launch_tuning.cpp:
//   texture    kernels/jacobi/cuda/07_texture.cu, chapter 07's kernel, for comparison
//   readonly   kernels/jacobi/cuda/07b_01_readonly.cu: every load through the read-only path
//   tiled2d    kernels/jacobi/cuda/07b_02_tiled2d.cu: 2D blocks, an x tile with its halo in shared memory
//   multirow   kernels/jacobi/cuda/07b_03_multirow.cu: four columns and several rows per thread in registers
//   symmetric  kernels/jacobi/cuda/07b_04_symmetric.cu: multirow on 5 of the 9 diagonals
//   symmetric_prefetch  kernels/jacobi/cuda/07b_05_prefetch.cu: symmetric, the next row's loads in flight
//   symmetric_ring  kernels/jacobi/cuda/07b_06_ring.cu: symmetric, the next two rows in a shared-memory ring
//   cusparse   cusparse_variants.cpp: the library a user would pick instead, cuSPARSE's SpMV on CSR
#include "cusparse_variants.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"
#include "cuda_variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "07b", "ch07b_cuda_past_the_paper",
    "Past the paper: read-only loads, 2D tiles, several points per thread, symmetric storage",
    "paper 000, conclusion (future work: symmetric storage, 2D blocks), on today's GPU"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    namespace jc = gpgpu::jacobi::cuda;
    jc::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, jc::chapter_settings(options, /*width_sweep=*/false));
    jc::add_options(chapter.cli(), options);
    chapter.add(jc::texture_variant(options.launch));
    chapter.add(ch07b::readonly_variant(options.launch));
    chapter.add(ch07b::tiled2d_variant(options.launch));
    chapter.add(ch07b::multirow_variant(options.launch));
    chapter.add(ch07b::symmetric_variant(options.launch));
    chapter.add(ch07b::symmetric_prefetch_variant(options.launch));
    chapter.add(ch07b::symmetric_ring_variant(options.launch));
    chapter.add(ch07b::cusparse_variant());  // a note saying why, when the toolkit has no cuSPARSE
    return chapter.run(argc, argv);
  });
}
