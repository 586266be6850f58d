/// @file tile_vec4.hpp
/// @brief What the 16-byte transposes of chapter 09 (09_11_transpose_tile_vec4.cu and the steps after
/// it) share: the 16-byte vector they load and store, the block, and how it moves one 64 x 64 tile
/// (the steps differ only in which tile a block takes).
#pragma once
#include <cstdint>

#include "matrix_args.hpp"

namespace gpgpu::matrix::cuda {

/// 16 bytes of T, loaded and stored as one access (alignas: a 16-byte load and store instruction).
template <typename T>
struct alignas(16) Pack16 {
  T e[16 / sizeof(T)];
};

// The block: 8 vectors across x 4 rows per warp, 8 warps; a 64 x 64 tile per block.
inline constexpr int kVec4WarpVectors = 8, kVec4WarpRows = 4, kVec4Warps = 8;
inline constexpr int kTransposeVec4Tile = 64;

//! [move_tile]
/// One 64 x 64 (Tile x Tile) tile of `a.in`, whose corner is (row0, col0), into `a.out` transposed,
/// by a block of kVec4WarpVectors x kVec4WarpRows x kVec4Warps threads through `tile`. Shared: the
/// tile's element type (T; the CPU test counts bank conflicts through a recording T).
template <typename T, int Tile, typename Shared>
__device__ __forceinline__ void move_tile_vec4(const TransposeArgs<T>& a, Shared (&tile)[Tile][Tile + 1], int row0,
                                               int col0) {
  constexpr int kWidth = 16 / sizeof(T);                             // elements per vector
  constexpr int kAcross = Tile / (kWidth * kVec4WarpVectors);        // warps along a tile row
  constexpr int kRowsPerPass = kVec4WarpRows * kVec4Warps / kAcross; // tile rows per pass
  const bool vectors = row0 + Tile <= a.rows && col0 + Tile <= a.cols && a.rows % kWidth == 0 &&
                       a.cols % kWidth == 0 && reinterpret_cast<std::uintptr_t>(a.in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(a.out) % 16 == 0;
  if (vectors) {
    const int x = kWidth * (threadIdx.x + kVec4WarpVectors * (threadIdx.z % kAcross));  // first column
    const int y = threadIdx.y + kVec4WarpRows * (threadIdx.z / kAcross);               // first row
    Pack16<T> v[Tile / kRowsPerPass];  // every load of the thread issued before the first is used
#pragma unroll
    for (int p = 0; p < Tile / kRowsPerPass; ++p)
      v[p] = *reinterpret_cast<const Pack16<T>*>(&a.in[(row0 + y + p * kRowsPerPass) * a.cols + col0 + x]);
#pragma unroll
    for (int p = 0; p < Tile / kRowsPerPass; ++p)
#pragma unroll
      for (int k = 0; k < kWidth; ++k) tile[y + p * kRowsPerPass][x + k] = v[p].e[k];
    __syncthreads();
#pragma unroll
    for (int p = 0; p < Tile / kRowsPerPass; ++p) {
      const int ly = y + p * kRowsPerPass;  // row of out = column of in: col0 + ly
      Pack16<T> v;
#pragma unroll
      for (int k = 0; k < kWidth; ++k) v.e[k] = tile[x + k][ly];
      *reinterpret_cast<Pack16<T>*>(&a.out[(col0 + ly) * a.rows + row0 + x]) = v;
    }
  } else {  // 09_10's loops, 64 x 4 threads
    const int lx = threadIdx.x + kVec4WarpVectors * (threadIdx.y + kVec4WarpRows * (threadIdx.z % 2));
    constexpr int kEdgeRowsPerPass = kVec4Warps / 2;
    for (int ly = threadIdx.z / 2; ly < Tile; ly += kEdgeRowsPerPass)
      if (col0 + lx < a.cols && row0 + ly < a.rows) tile[lx][ly] = a.in[(row0 + ly) * a.cols + col0 + lx];
    __syncthreads();
    for (int ly = threadIdx.z / 2; ly < Tile; ly += kEdgeRowsPerPass)
      if (row0 + lx < a.rows && col0 + ly < a.cols) a.out[(col0 + ly) * a.rows + row0 + lx] = tile[ly][lx];
  }
}
//! [move_tile]

}  // namespace gpgpu::matrix::cuda
