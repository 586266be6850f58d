/// @file cuda_variants.hpp
/// @brief Chapter 07b's host code and variants: its kernels run on chapter 05's pitched layout
/// (gpgpu::jacobi::cuda::PitchedSolver); what is new is how they are launched. The 2D-block kernel takes a block height; the kernels that
/// walk several rows per thread (multirow, and symmetric on 5 stored diagonals) take a number of
/// rows per thread, chosen from the occupancy, and can time a set of launch candidates and keep the
/// fastest (tune()).
#pragma once
#include <string>

#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

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

/// 07b_03_multirow.cu (nine diagonals) and 07b_04_symmetric.cu (the main diagonal and the four upper
/// ones): each thread updates 4 columns in `rows_per_thread` consecutive rows.
class RowWalkingSolver final : public gpgpu::jacobi::cuda::PitchedSolver {
 public:
  enum class Storage { nine_diagonals, symmetric };
  /// Blocks of launch.block_or(128) threads; launch.rows_per_thread rows per thread, or, when it is
  /// 0, as many as keep eight waves of resident threads on the device's `sm_count` SMs. tune() tries
  /// the candidates only when launch.tuning().
  RowWalkingSolver(const gpgpu::jacobi::LinearSystem& sys, Storage storage, const gpgpu::jacobi::cuda::LaunchOptions& launch,
                   int sm_count);
  /// Times blocks of 64, 128 and 256 threads x 1, 2, 4, 8 and 16 rows per thread over `iters`
  /// iterations each, after the default; keeps the fastest and says which it is.
  std::string tune(int iters, float omega) override;
  /// "block 128, 4 columns x 4 rows per thread, pitch 1056 floats".
  [[nodiscard]] std::string launch() const override;

 private:
  void step(int in, float omega) override;
  [[nodiscard]] int default_rows_per_thread(int sm_count) const;
  Storage storage_;
  int rows_per_thread_ = 1;
  bool tuning_;
};

/// `readonly`: kernels/jacobi/cuda/07b_01_readonly.cu, every load read-only (__ldg); blocks of 64.
/// `launch` is read when a solver is made, after parsing: it must outlive the variant (all four).
gpgpu::jacobi::Variant readonly_variant(const gpgpu::jacobi::cuda::LaunchOptions& launch);

/// `tiled2d`: kernels/jacobi/cuda/07b_02_tiled2d.cu, 2D blocks (32 x 8 unless --block, --block-y) and an
/// x tile with its halo in shared memory.
gpgpu::jacobi::Variant tiled2d_variant(const gpgpu::jacobi::cuda::LaunchOptions& launch);

/// `multirow`: kernels/jacobi/cuda/07b_03_multirow.cu, 4 columns (one float4) x several rows per thread,
/// x rows kept in registers; tuned unless the launch is fixed (--no-tune, --block, --rows-per-thread).
gpgpu::jacobi::Variant multirow_variant(const gpgpu::jacobi::cuda::LaunchOptions& launch);

/// `symmetric`: kernels/jacobi/cuda/07b_04_symmetric.cu, multirow on 5 of the 9 diagonals (the
/// symmetric storage, work "jacobi9_symmetric": 32 instead of 48 bytes per node); tuned likewise.
gpgpu::jacobi::Variant symmetric_variant(const gpgpu::jacobi::cuda::LaunchOptions& launch);

}  // namespace ch07b
