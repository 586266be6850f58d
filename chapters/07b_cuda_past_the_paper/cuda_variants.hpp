/// @file cuda_variants.hpp
/// @brief Chapter 07b's host code and variants: its kernels run on chapter 05's pitched layout
/// (gpgpu::jacobi::cuda::PitchedSolver); what is new is how they are launched. The 2D-block kernel takes a block height; the kernels that
/// walk several rows per thread (multirow, and symmetric on 5 stored diagonals) are launched by
/// gpgpu/jacobi/cuda/row_walking_solver.hpp, in the problem's library.
#pragma once
#include <string>

#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"
#include "gpgpu/jacobi/cuda/row_walking_solver.hpp"

namespace ch07b {

/// 07b_02_tiled2d.cu: blocks of block_x x block_y threads, each updating a block_x x block_y tile.
class Tiled2dSolver final : public gpgpu::jacobi::cuda::PitchedSolver {
 public:
  Tiled2dSolver(const gpgpu::jacobi::LinearSystem& sys, int block_x, int block_y);
  /// "block 32x8, pitch 1056 floats".
  [[nodiscard]] std::string launch() const override;

 private:
  void step(int in, float omega) override;
  int block_y_;
};

/// `readonly`: kernels/jacobi/cuda/07b_01_readonly.cu, every load read-only (__ldg); blocks of 64.
/// `launch` is read when a solver is made, after parsing: it must outlive the variant (both).
gpgpu::jacobi::Variant readonly_variant(const gpgpu::jacobi::cuda::LaunchOptions& launch);

/// `tiled2d`: kernels/jacobi/cuda/07b_02_tiled2d.cu, 2D blocks (32 x 8 unless --block, --block-y) and an
/// x tile with its halo in shared memory.
gpgpu::jacobi::Variant tiled2d_variant(const gpgpu::jacobi::cuda::LaunchOptions& launch);

/// `multirow`, `symmetric`, `symmetric_prefetch` and `symmetric_ring` (07b_03_multirow.cu,
/// 07b_04_symmetric.cu, 07b_05_prefetch.cu, 07b_06_ring.cu): the problem's library, since chapter 07c runs them too
/// (gpgpu/jacobi/cuda/row_walking_solver.hpp).
using gpgpu::jacobi::cuda::multirow_variant;
using gpgpu::jacobi::cuda::symmetric_prefetch_variant;
using gpgpu::jacobi::cuda::symmetric_ring_variant;
using gpgpu::jacobi::cuda::symmetric_variant;

}  // namespace ch07b
