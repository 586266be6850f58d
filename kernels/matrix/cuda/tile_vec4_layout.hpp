/// @file tile_vec4_layout.hpp
/// @brief What the 16-byte transposes of chapter 09 (09_11_transpose_tile_vec4.cu and the steps after
/// it) share: the 16-byte vector they load and store, and the block that moves a 64 x 64 tile.
#pragma once

namespace gpgpu::matrix::cuda {

/// 16 bytes of T, loaded and stored as one access (alignas: a 16-byte load and store instruction).
template <typename T>
struct alignas(16) Pack16 {
  T e[16 / sizeof(T)];
};

// The block: 8 vectors across x 4 rows per warp, 8 warps; a 64 x 64 tile per block.
inline constexpr int kVec4WarpVectors = 8, kVec4WarpRows = 4, kVec4Warps = 8;
inline constexpr int kTransposeVec4Tile = 64;

}  // namespace gpgpu::matrix::cuda
