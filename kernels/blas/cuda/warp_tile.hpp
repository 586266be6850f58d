/// @file warp_tile.hpp
/// @brief Which 8 x 8 elements of a 128 x 128 block tile a thread computes in 10_06_warptile.cu and
/// 10_07_double_buffer.cu: the 8 warps split the tile into 4 x 2 warp tiles of 32 x 64; in its warp
/// tile, lane (lr = lane / 8, lc = lane % 8) computes 2 x 2 blocks of 4 x 4, 16 rows and 32
/// columns apart, starting at (4 lr, 4 lc). 10_09_three_stage.cu uses the same pattern with more
/// blocks of 4 x 4 per thread (16 x 8: 4 x 2 of them), so its warp tiles are 4 TM x 8 TN.
#pragma once
#include <cuda_runtime_api.h>

#include "gemm_args.hpp"

namespace gpgpu::blas::cuda {

inline constexpr int kWarpM = 32, kWarpN = 64;
//! [warp_tile]
/// Offsets of a thread's i-th row and j-th column from its first (i, j = 0 ... 7 in steps 6 and 7,
/// up to 15 in step 9): blocks of 4 neighbours, 16 rows or 32 columns apart.
__device__ __forceinline__ int row_of(int i) { return i / 4 * 16 + i % 4; }
__device__ __forceinline__ int col_of(int j) { return j / 4 * 32 + j % 4; }

/// Writes a thread's TM x TN sums to C, element (i, j) at row row_first + row_of(i) and column
/// col_first + col_of(j); only those inside C.
template <typename T, int TM, int TN>
__device__ __forceinline__ void store_thread_tile(const GemmArgs<T>& g, const T (&acc)[TM][TN], int row_first, int col_first) {
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int row = row_first + row_of(i), col = col_first + col_of(j);
      if (row < g.m && col < g.n) g.c[row * g.n + col] = acc[i][j];
    }
}
//! [warp_tile]

}  // namespace gpgpu::blas::cuda
