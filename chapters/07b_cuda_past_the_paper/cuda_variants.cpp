// Chapter 07b's host code, in the order a run uses it: the variants, then how the 2D-block kernel is
// launched on chapter 05's pitched layout. The row-walking kernels' variants and launches (multirow,
// symmetric: rows per thread and their tuning) are problems/jacobi/cuda/src/row_walking_solver.cpp,
// since chapter 07c runs them too.
#include "cuda_variants.hpp"

#include <memory>

#include "gpgpu/cuda/opener.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace ch07b {

namespace jc = gpgpu::jacobi::cuda;
using gpgpu::jacobi::LinearSystem;
using gpgpu::jacobi::Variant;

//! [variants]
Variant readonly_variant(const jc::LaunchOptions& launch) {
  Variant v = jc::cuda_variant("readonly", "pitched, every load read-only (__ldg)", "kernels/jacobi/cuda/07b_01_readonly.cu", "");
  v.make = [&launch](const LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<jc::PitchedSolver>(sys, launch.block_or(64), jc::launch_jacobi_readonly);
  };
  v.check_fits = jc::fits_pitched("readonly");
  return v;
}

Variant tiled2d_variant(const jc::LaunchOptions& launch) {
  Variant v = jc::cuda_variant("tiled2d", "2D blocks, x tile with halo in shared memory",
                               "kernels/jacobi/cuda/07b_02_tiled2d.cu", "");
  v.make = [&launch](const LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<Tiled2dSolver>(sys, launch.block_or(32), launch.block_y > 0 ? launch.block_y : 8);
  };
  v.check_fits = jc::fits_pitched("tiled2d");
  return v;
}

//! [variants]

Tiled2dSolver::Tiled2dSolver(const gpgpu::jacobi::LinearSystem& sys, int block_x, int block_y)
    : PitchedSolver(sys, jc::kNineDiagonals), block_y_(block_y) {
  jc::check_block(block_x, block_y);
  block_ = block_x;
}

void Tiled2dSolver::step(int in, float omega) { jc::launch_jacobi_tiled2d(args(in, omega), block_, block_y_, nullptr); }

std::string Tiled2dSolver::launch() const {
  return "block " + std::to_string(block_) + "x" + std::to_string(block_y_) + ", pitch " + std::to_string(pitch()) +
         " floats";
}

}  // namespace ch07b
