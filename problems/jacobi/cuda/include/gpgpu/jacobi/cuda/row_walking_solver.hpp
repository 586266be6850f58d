/// @file row_walking_solver.hpp
/// @brief The kernels that walk several rows per thread on chapter 05's pitched layout, and their
/// launch: 07b_03_multirow.cu (nine diagonals), 07b_04_symmetric.cu (the symmetric storage) and
/// 07b_05_prefetch.cu (the symmetric kernel with the next row's loads in flight) and 07b_06_ring.cu
/// (the next two rows copied into a ring in shared memory).
/// Chapter 07b introduces them; chapter 07c runs them beside its temporal blocking, so they live in
/// the problem's library. The rows per thread come from the occupancy, and tune() can time a set of
/// launch candidates and keep the fastest.
#pragma once
#include <string>

#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace gpgpu::jacobi::cuda {

/// 07b_03_multirow.cu (nine diagonals), 07b_04_symmetric.cu, 07b_05_prefetch.cu and 07b_06_ring.cu (the main diagonal
/// and the four upper ones): each thread updates 4 columns in `rows_per_thread` consecutive rows.
class RowWalkingSolver final : public PitchedSolver {
 public:
  enum class Kernel { multirow, symmetric, symmetric_prefetch, symmetric_ring };
  /// Blocks of launch.block_or(128) threads; launch.rows_per_thread rows per thread, or, when it is
  /// 0, as many as keep eight waves of resident threads on the device's `sm_count` SMs. tune() tries
  /// the candidates only when launch.tuning(). Kernel::symmetric_prefetch refuses blocks of more than
  /// kPrefetchMaxBlock threads, Kernel::symmetric_ring of more than kRingMaxBlock (gpgpu::UsageError).
  RowWalkingSolver(const gpgpu::jacobi::LinearSystem& sys, Kernel kernel, const LaunchOptions& launch, int sm_count);
  /// Times blocks of 64, 128 and 256 threads x 1, 2, 4, 8 and 16 rows per thread over `iters`
  /// iterations each, after the default; keeps the fastest and says which it is.
  std::string tune(int iters, float omega) override;
  /// "block 128, 4 columns x 4 rows per thread, pitch 1056 floats".
  [[nodiscard]] std::string launch() const override;

 private:
  void step(int in, float omega) override;
  [[nodiscard]] int default_rows_per_thread(int sm_count) const;
  Kernel kernel_;
  int rows_per_thread_ = 1;
  bool tuning_;
};

/// `launch` is read when a solver is made, after parsing: it must outlive the variant (both).
/// `multirow`: kernels/jacobi/cuda/07b_03_multirow.cu, 4 columns (one float4) x several rows per thread,
/// x rows kept in registers; tuned unless the launch is fixed (--no-tune, --block, --rows-per-thread).
gpgpu::jacobi::Variant multirow_variant(const LaunchOptions& launch);

/// `symmetric`: kernels/jacobi/cuda/07b_04_symmetric.cu, multirow on 5 of the 9 diagonals (the
/// symmetric storage, work "jacobi9_symmetric": 32 instead of 48 bytes per node); tuned likewise.
gpgpu::jacobi::Variant symmetric_variant(const LaunchOptions& launch);

/// `symmetric_prefetch`: kernels/jacobi/cuda/07b_05_prefetch.cu, symmetric with the next row's loads
/// issued before this row's update (the same bits); blocks of at most kPrefetchMaxBlock; tuned likewise.
gpgpu::jacobi::Variant symmetric_prefetch_variant(const LaunchOptions& launch);

/// `symmetric_ring`: kernels/jacobi/cuda/07b_06_ring.cu, symmetric with the next two rows copied by
/// cp.async into a ring in shared memory, the halo columns read from it (the same bits); blocks of at
/// most kRingMaxBlock; tuned likewise.
gpgpu::jacobi::Variant symmetric_ring_variant(const LaunchOptions& launch);

}  // namespace gpgpu::jacobi::cuda
