// Chapter 06: CUDA weighted Jacobi, shared memory: x rows staged on chip.
// The variants this chapter runs, in order, all on chapter 05's host code
// (problems/jacobi/cuda/src/pitched_solver.cpp):
//   pitched       kernels/jacobi/cuda/05_pitched.cu, chapter 05's kernel, the baseline
//   shared        kernels/jacobi/cuda/06_01_shared.cu, rows j-1..j+1 of the block in shared memory
//   shared_paper  kernels/jacobi/cuda/06_02_shared_paper.cu, the tile loaded as the paper's Fig. 15 does
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"06", "ch06_cuda_shared", "CUDA weighted Jacobi, shared memory: x rows staged on chip",
                               "paper 000, section 6.4 (Figs. 15-16), Tables 2, 3, 5, 7 and 8"};

}  // namespace

int main(int argc, char** argv) {
  namespace jc = gpgpu::jacobi::cuda;
  return jc::run_chapter(kInfo, argc, argv, {jc::pitched_variant, jc::shared_variant, jc::shared_paper_variant}, /*width_sweep=*/true);
}
