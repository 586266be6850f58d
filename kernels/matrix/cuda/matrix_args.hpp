/// @file matrix_args.hpp
/// @brief What the matrix kernels of chapter 09 receive, and the launch shapes they are written
/// for. Every matrix is dense and row-major: element (r, c) of a rows x cols matrix is at
/// r * cols + c. The chapter's option group keeps rows * cols below kMaxElements, so every index
/// and every index plus one grid-stride step fits an int.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::matrix::cuda {

/// C = A + B, all three rows x cols.
template <typename T>
struct AddArgs {
  const T* a;
  const T* b;
  T* c;
  int rows;
  int cols;
};

/// out = inᵀ: `in` is rows x cols, `out` is cols x rows.
template <typename T>
struct TransposeArgs {
  const T* in;
  T* out;
  int rows;
  int cols;
};

/// gridDim.y is at most 65535 on every GPU; gridDim.x at most 2^31 - 1.
inline constexpr int kMaxGridY = 65535;

// Launch shapes. One place, so that the host code's limitations and the kernels agree.
/// Blocks of the element-per-thread kernels (add row/column-major, naive transpose): 32 x 8, one
/// warp along threadIdx.x.
inline constexpr int kBlockX = 32;
inline constexpr int kBlockY = 8;
/// Paper 003, Obr. 13: TILE_SIZE 32, blocks of 32 x 32 threads.
inline constexpr int kPaperAddTile = 32;
/// Paper 003, Obr. 20: TILE_SIZE 16, blocks of 16 x 16 threads.
inline constexpr int kPaperTransposeTile = 16;
/// The corrected tiles: 32 x 32 elements (a warp reads or writes one tile row); tile and
/// tile_padded run one element per thread (blocks of 32 x 32), tile_multi kTileRowsPerPass rows
/// per pass (blocks of 32 x 8, four elements per thread).
inline constexpr int kTile = 32;
inline constexpr int kTileRowsPerPass = 8;
/// The grid-stride add: blocks of 256 threads; a grid of at most 2^25 threads (options.hpp's bound).
inline constexpr int kVecBlock = 256;
inline constexpr unsigned kVecMaxBlocks = (1u << 25) / kVecBlock;

/// Blocks of `per_block` items that cover `count` items.
constexpr unsigned blocks_for(long long count, long long per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}
/// gridDim.y for `blocks` block rows: at most kMaxGridY (the kernels that allow more loop).
constexpr unsigned grid_y(long long blocks) { return static_cast<unsigned>(blocks < kMaxGridY ? blocks : kMaxGridY); }

}  // namespace gpgpu::matrix::cuda
