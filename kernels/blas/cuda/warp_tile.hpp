/// @file warp_tile.hpp
/// @brief Which 8 x 8 elements of a 128 x 128 block tile a thread computes in 10_warptile.cu and
/// 10_double_buffer.cu: the 8 warps split the tile into 4 x 2 warp tiles of 32 x 64; in its warp
/// tile, lane (lr = lane / 8, lc = lane % 8) computes 2 x 2 blocks of 4 x 4, 16 rows and 32
/// columns apart, starting at (4 lr, 4 lc).
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

inline constexpr int kWarpM = 32, kWarpN = 64;
/// Offsets of a thread's i-th row and j-th column (i, j = 0 ... 7) from its first.
__device__ __forceinline__ int row_of(int i) { return i / 4 * 16 + i % 4; }
__device__ __forceinline__ int col_of(int j) { return j / 4 * 32 + j % 4; }

}  // namespace gpgpu::blas::cuda
