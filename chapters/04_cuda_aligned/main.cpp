// Chapter 04: CUDA weighted Jacobi, aligned: the ghost offset rounded up to the coalescing width.
// The variants this chapter runs, in order (host code: problems/jacobi/cuda/src/linear_solver.cpp,
// chapter 03's, with another offset):
//   simple     kernels/jacobi/cuda/03_simple.cu, chapter 03's kernel, the baseline
//   aligned    kernels/jacobi/cuda/04_aligned.cu, ghost offset a multiple of 16 floats (the paper's)
//   aligned32  the same kernel, offset a multiple of 32 floats (today's 128-byte line)
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"04", "ch04_cuda_aligned",
                               "CUDA weighted Jacobi, aligned: the ghost offset rounded up to the coalescing width",
                               "paper 000, section 6.2 (Fig. 13), Table 1"};

}  // namespace

int main(int argc, char** argv) {
  namespace jc = gpgpu::jacobi::cuda;
  return jc::run_chapter(kInfo, argc, argv, {jc::simple_variant, jc::aligned_variant, jc::aligned32_variant}, /*width_sweep=*/true);
}
