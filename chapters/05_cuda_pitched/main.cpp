// Chapter 05: CUDA weighted Jacobi, pitched: cudaMallocPitch and a 2D grid.
// The variants this chapter runs, in order:
//   aligned  kernels/jacobi/cuda/04_aligned.cu, chapter 04's kernel (problems/jacobi/cuda/src/linear_solver.cpp)
//   pitched  kernels/jacobi/cuda/05_pitched.cu on this chapter's host code,
//            problems/jacobi/cuda/src/pitched_solver.cpp: cudaMallocPitch, ghost rows, a 2D grid
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"05", "ch05_cuda_pitched", "CUDA weighted Jacobi, pitched: cudaMallocPitch and a 2D grid",
                               "paper 000, section 6.3 (Fig. 14), Tables 1 and 2 (\"CUDA 2D\")"};

}  // namespace

int main(int argc, char** argv) {
  namespace jc = gpgpu::jacobi::cuda;
  return jc::run_chapter(kInfo, argc, argv, {jc::aligned_variant, jc::pitched_variant}, /*width_sweep=*/true);
}
