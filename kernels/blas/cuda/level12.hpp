/// @file level12.hpp
/// @brief The level-1 and level-2 kernels of chapter 12 (paper 001's SAXPY, SSCAL, SGEMV): what
/// they receive, their launch shapes and one launch function per kernel file. Row-major A (m x n);
/// every index fits an int (the option group keeps arrays below 2^31 - 2^25 elements). The host
/// code is chapters/12_gpu_friendly/cuda_variants.cpp.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

/// y <- alpha x + y (12_01_saxpy.cu) or x <- alpha x (12_02_sscal.cu, y unused), n elements.
struct VectorArgs {
  const float* x;
  float* y;
  float alpha;
  int n;
};
/// y <- A x (12_03_sgemv_rows.cu: x of n, y of m) or y <- Aᵀ x (12_04_sgemv_t_columns.cu: x of m, y of n).
struct GemvArgs {
  const float* a;
  const float* x;
  float* y;
  int m;
  int n;
};

/// 12_01_saxpy.cu, 12_02_sscal.cu: blocks of 256 threads, one float4 per thread.
inline constexpr int kVectorThreads = 256;
/// 12_03_sgemv_rows.cu: a warp per row, 8 rows (warps) per block.
inline constexpr int kGemvRowsPerBlock = 8;
/// 12_04_sgemv_t_columns.cu: blocks of 32 columns x 8 row lanes, each block sweeping kGemvTRows rows.
inline constexpr int kGemvTColumns = 32, kGemvTLanes = 8, kGemvTRows = 256;

void launch_saxpy(const VectorArgs& v, cudaStream_t stream);  // 12_01_saxpy.cu
void launch_sscal(const VectorArgs& v, cudaStream_t stream);  // 12_02_sscal.cu
void launch_sgemv_rows(const GemvArgs& g, cudaStream_t stream);             // 12_03_sgemv_rows.cu
/// Zeroes y on `stream`, then adds each block's partial sums to it (atomicAdd).
void launch_sgemv_t_columns(const GemvArgs& g, cudaStream_t stream);        // 12_04_sgemv_t_columns.cu

/// Blocks of `per_block` that cover `count`.
constexpr unsigned level12_blocks(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}
/// The grid of 12_01_saxpy.cu and 12_02_sscal.cu: one float4 per thread, at least one block (whose first
/// threads also do the n % 4 tail). At most 2^31 / 1024 blocks, far below the grid's 2^31 - 1.
constexpr unsigned vector_blocks(int n) {
  const unsigned needed = level12_blocks(n / 4, kVectorThreads);
  return needed < 1 ? 1 : needed;
}

}  // namespace gpgpu::blas::cuda
