/// @file gemm_args.hpp
/// @brief What the GEMM kernels of chapter 10 receive, and the tile sizes they are written for.
/// Every matrix is dense and row-major: A is m x k, B is k x n, C = A·B is m x n. The option group
/// keeps every matrix below matrix::kMaxElements elements, so every in-range index fits an int;
/// kernels compute an index only for an element inside its matrix.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

template <typename T>
struct GemmArgs {
  const T* a;
  const T* b;
  T* c;
  int m;
  int n;
  int k;
};

/// gridDim.y is at most 65535 on every GPU: the kernels put the tile rows of C on it.
inline constexpr long long kMaxGridY = 65535;

// Tile sizes, one place for kernels, launchers and the host code's limitations.
/// 10_naive.cu: blocks of 16 x 16 threads, one element of C each (the paper's launch).
inline constexpr int kNaiveBlock = 16;
/// 10_tile16.cu: the paper's BLOCK_SIZE (Obr. 10).
inline constexpr int kPaperTile = 16;
/// 10_blocktile_1d.cu: a 64 x 64 tile of C per block, K in steps of 8, 8 elements per thread (512 threads).
inline constexpr int k1dBM = 64, k1dBN = 64, k1dBK = 8, k1dTM = 8;
/// 10_blocktile_2d.cu and later: a 128 x 128 tile of C per block, K in steps of 8, 8 x 8 per thread (256 threads).
inline constexpr int k2dBM = 128, k2dBN = 128, k2dBK = 8, k2dTM = 8, k2dTN = 8;
/// 10_tf32_wmma.cu: a 128 x 128 tile per block of 8 warps, K in steps of 16.
inline constexpr int kWmmaBM = 128, kWmmaBN = 128, kWmmaBK = 16;

/// Blocks of `per_block` that cover `count`.
constexpr unsigned blocks_for(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}

}  // namespace gpgpu::blas::cuda
