// Chapter 07: CUDA weighted Jacobi, texture: x through texture objects.
// The variants this chapter runs, in order:
//   shared   kernels/jacobi/cuda/06_01_shared.cu, chapter 06's kernel (problems/jacobi/cuda/src/pitched_solver.cpp)
//   texture  kernels/jacobi/cuda/07_texture.cu on this chapter's host code,
//            problems/jacobi/cuda/src/texture_solver.cpp: two texture objects over chapter 04's layout
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"07", "ch07_cuda_texture", "CUDA weighted Jacobi, texture: x through texture objects",
                               "paper 000, section 6.5 (Fig. 17), Tables 3, 5, 7 and 8"};

}  // namespace

int main(int argc, char** argv) {
  namespace jc = gpgpu::jacobi::cuda;
  return jc::run_chapter(kInfo, argc, argv, {jc::shared_variant, jc::texture_variant}, /*width_sweep=*/false);
}
