/// @file tile_vec4.hpp
/// @brief What the 16-byte transposes of chapter 09 (09_11_transpose_tile_vec4.cu and the steps after
/// it) share: the 16-byte vector they load and store, the block, how it moves one 64 x 64 tile (in
/// parts that 09_13 pipelines across tiles), and the panel order of 09_12 and 09_13 (the steps differ
/// in which tiles a block takes and when it loads them).
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

// A block's 16-byte path in four parts, which 09_13 pipelines across tiles: whether a tile takes it,
// the global loads into registers, the registers into the tile, the tile to the output. Shared: the
// tile's element type (T; the CPU test counts bank conflicts through a recording T).
template <typename T>
inline constexpr int kVec4Width = 16 / sizeof(T);  // elements per vector
template <typename T, int Tile>
inline constexpr int kVec4Across = Tile / (kVec4Width<T> * kVec4WarpVectors);  // warps along a tile row
template <typename T, int Tile>
inline constexpr int kVec4RowsPerPass = kVec4WarpRows * kVec4Warps / kVec4Across<T, Tile>;  // tile rows per pass
template <typename T, int Tile>
inline constexpr int kVec4Passes = Tile / kVec4RowsPerPass<T, Tile>;  // vectors a thread loads per tile

/// The vectors of one tile that a thread holds between its loads and the tile.
template <typename T, int Tile>
struct TileVectors {
  Pack16<T> v[kVec4Passes<T, Tile>];
};

//! [tile_parts]
/// True when the tile at (row0, col0) takes the 16-byte path: whole, rows of the input and of the
/// output whole vectors, both pointers on 16 bytes. The same for every thread of a block.
template <typename T, int Tile>
__device__ __forceinline__ bool vec4_tile(const TransposeArgs<T>& a, int row0, int col0) {
  constexpr int kWidth = kVec4Width<T>;
  return row0 + Tile <= a.rows && col0 + Tile <= a.cols && a.rows % kWidth == 0 && a.cols % kWidth == 0 &&
         reinterpret_cast<std::uintptr_t>(a.in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(a.out) % 16 == 0;
}

/// The thread's first column (x) and row (y) in the tile on the 16-byte path.
template <typename T, int Tile>
__device__ __forceinline__ int vec4_x() {
  return kVec4Width<T> * (threadIdx.x + kVec4WarpVectors * (threadIdx.z % kVec4Across<T, Tile>));
}
template <typename T, int Tile>
__device__ __forceinline__ int vec4_y() {
  return threadIdx.y + kVec4WarpRows * (threadIdx.z / kVec4Across<T, Tile>);
}

/// The thread's vectors of the tile at (row0, col0): every load issued before any is used.
template <typename T, int Tile>
__device__ __forceinline__ void load_tile_vec4(const TransposeArgs<T>& a, TileVectors<T, Tile>& r, int row0, int col0) {
  const int x = vec4_x<T, Tile>(), y = vec4_y<T, Tile>();
#pragma unroll
  for (int p = 0; p < kVec4Passes<T, Tile>; ++p)
    r.v[p] = *reinterpret_cast<const Pack16<T>*>(&a.in[(row0 + y + p * kVec4RowsPerPass<T, Tile>) * a.cols + col0 + x]);
}

/// The thread's vectors into the tile (the caller's barrier follows).
template <typename T, int Tile, typename Shared>
__device__ __forceinline__ void stage_tile_vec4(Shared (&tile)[Tile][Tile + 1], const TileVectors<T, Tile>& r) {
  const int x = vec4_x<T, Tile>(), y = vec4_y<T, Tile>();
#pragma unroll
  for (int p = 0; p < kVec4Passes<T, Tile>; ++p)
#pragma unroll
    for (int k = 0; k < kVec4Width<T>; ++k) tile[y + p * kVec4RowsPerPass<T, Tile>][x + k] = r.v[p].e[k];
}

/// The tile, after the barrier, into `a.out` transposed: each thread gathers a vector down a column.
template <typename T, int Tile, typename Shared>
__device__ __forceinline__ void store_tile_vec4(const TransposeArgs<T>& a, const Shared (&tile)[Tile][Tile + 1], int row0,
                                                int col0) {
  const int x = vec4_x<T, Tile>(), y = vec4_y<T, Tile>();
#pragma unroll
  for (int p = 0; p < kVec4Passes<T, Tile>; ++p) {
    const int ly = y + p * kVec4RowsPerPass<T, Tile>;  // row of out = column of in: col0 + ly
    Pack16<T> v;
#pragma unroll
    for (int k = 0; k < kVec4Width<T>; ++k) v.e[k] = tile[x + k][ly];
    *reinterpret_cast<Pack16<T>*>(&a.out[(col0 + ly) * a.rows + row0 + x]) = v;
  }
}

// The element path of a tile the matrix cuts (09_10's loops, 64 x 4 threads), in the same two halves.
__device__ __forceinline__ int edge_lx() {
  return threadIdx.x + kVec4WarpVectors * (threadIdx.y + kVec4WarpRows * (threadIdx.z % 2));
}
inline constexpr int kEdgeRowsPerPass = kVec4Warps / 2;

template <typename T, int Tile, typename Shared>
__device__ __forceinline__ void load_tile_edge(const TransposeArgs<T>& a, Shared (&tile)[Tile][Tile + 1], int row0,
                                               int col0) {
  const int lx = edge_lx();
  for (int ly = threadIdx.z / 2; ly < Tile; ly += kEdgeRowsPerPass)
    if (col0 + lx < a.cols && row0 + ly < a.rows) tile[lx][ly] = a.in[(row0 + ly) * a.cols + col0 + lx];
}

template <typename T, int Tile, typename Shared>
__device__ __forceinline__ void store_tile_edge(const TransposeArgs<T>& a, const Shared (&tile)[Tile][Tile + 1], int row0,
                                                int col0) {
  const int lx = edge_lx();
  for (int ly = threadIdx.z / 2; ly < Tile; ly += kEdgeRowsPerPass)
    if (row0 + lx < a.rows && col0 + ly < a.cols) a.out[(col0 + ly) * a.rows + row0 + lx] = tile[ly][lx];
}
//! [tile_parts]

//! [move_tile]
/// One 64 x 64 (Tile x Tile) tile of `a.in`, whose corner is (row0, col0), into `a.out` transposed,
/// by a block of kVec4WarpVectors x kVec4WarpRows x kVec4Warps threads through `tile`.
template <typename T, int Tile, typename Shared>
__device__ __forceinline__ void move_tile_vec4(const TransposeArgs<T>& a, Shared (&tile)[Tile][Tile + 1], int row0,
                                               int col0) {
  const bool vectors = vec4_tile<T, Tile>(a, row0, col0);
  if (vectors) {
    TileVectors<T, Tile> r;  // every load of the thread issued before the first is used
    load_tile_vec4<T, Tile>(a, r, row0, col0);
    stage_tile_vec4<T, Tile>(tile, r);
    __syncthreads();
    store_tile_vec4<T, Tile>(a, tile, row0, col0);
  } else {  // 09_10's loops, 64 x 4 threads
    load_tile_edge<T, Tile>(a, tile, row0, col0);
    __syncthreads();
    store_tile_edge<T, Tile>(a, tile, row0, col0);
  }
}
//! [move_tile]

// The tile order of 09_12 and 09_13 (09_12_transpose_tile_panels.cu's header gives the reasoning).
//! [panel_tile]
// Tile columns per panel: about the square root of 09_12's blocks resident at once (8 x 132 on the H200).
inline constexpr int kPanelTiles = 32;

/// The tile (in tiles across and down) that block number `id` of a tiles_x x tiles_y grid moves:
/// the panels of kPanelTiles tile columns one after another, each row by row.
struct TileAt {
  int across, down;
};
__host__ __device__ inline TileAt panel_tile(int id, int tiles_x, int tiles_y) {
  const int per_panel = kPanelTiles * tiles_y;  // tiles in a full panel
  const int panel = id / per_panel, first = panel * kPanelTiles, at = id - panel * per_panel;
  const int width = tiles_x - first < kPanelTiles ? tiles_x - first : kPanelTiles;  // the last may be narrower
  return {first + at % width, at / width};
}
//! [panel_tile]

}  // namespace gpgpu::matrix::cuda
