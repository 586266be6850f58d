// Chapter 09, a yardstick beside the transposes: the copy with the transposes' own access pattern.
// Step 12 (09_12_transpose_tile_panels.cu) moves 64 x 64 tiles in panel order, each block reading
// 64 rows of 256 bytes and writing 64 rows of 256 bytes; the copy it is measured against reads and
// writes long straight runs. These two kernels take step 12's grid, tiles and order but write each
// tile where it was read (out = in, rows x cols), so the DRAM sees step 12's runs without the
// transposition:
//   - copy_tiles: each thread's four 16-byte vectors straight from its loads to its stores;
//   - copy_tiles_staged: through step 12's padded shared tile and its barrier, stored along rows.
// If they run at the copy's rate, what the transposes lose is theirs; if at the transposes', it is
// the pattern's. Tiles the matrix cuts take an element loop.
#include "launchers.hpp"
#include "tile_vec4.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

/// Tile (row0, col0) of a.in to the same place in a.out, element by element (a tile the matrix cuts).
template <typename T, int Tile>
__device__ __forceinline__ void copy_tile_edge(const TransposeArgs<T>& a, int row0, int col0) {
  const int lx = edge_lx();
  for (int ly = threadIdx.z / 2; ly < Tile; ly += kEdgeRowsPerPass)
    if (row0 + ly < a.rows && col0 + lx < a.cols) a.out[(row0 + ly) * a.cols + col0 + lx] = a.in[(row0 + ly) * a.cols + col0 + lx];
}

/// Step 12's tile of this block (panel order), its corner in `row0`, `col0`; false after copying it
/// element by element where the matrix cuts it, true after loading the thread's vectors of it into r.
template <typename T, int Tile>
__device__ __forceinline__ bool load_block_tile(const TransposeArgs<T>& a, TileVectors<T, Tile>& r, int& row0, int& col0) {
  const TileAt t = panel_tile(static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x), static_cast<int>(gridDim.x),
                              static_cast<int>(gridDim.y));
  row0 = t.down * Tile;
  col0 = t.across * Tile;
  if (!vec4_tile<T, Tile>(a, row0, col0)) {
    copy_tile_edge<T, Tile>(a, row0, col0);
    return false;
  }
  load_tile_vec4<T, Tile>(a, r, row0, col0);
  return true;
}

template <typename T, int Tile>
__global__ void copy_tiles(TransposeArgs<T> a) {
  TileVectors<T, Tile> r;
  int row0, col0;
  if (!load_block_tile<T, Tile>(a, r, row0, col0)) return;
  const int x = vec4_x<T, Tile>(), y = vec4_y<T, Tile>();
#pragma unroll
  for (int p = 0; p < kVec4Passes<T, Tile>; ++p)
    *reinterpret_cast<Pack16<T>*>(&a.out[(row0 + y + p * kVec4RowsPerPass<T, Tile>) * a.cols + col0 + x]) = r.v[p];
}

template <typename T, int Tile>
__global__ void copy_tiles_staged(TransposeArgs<T> a) {
  __shared__ T tile[Tile][Tile + 1];
  TileVectors<T, Tile> r;
  int row0, col0;
  if (!load_block_tile<T, Tile>(a, r, row0, col0)) return;  // uniform per block: the barrier below is safe
  stage_tile_vec4<T, Tile>(tile, r);
  __syncthreads();
  const int x = vec4_x<T, Tile>(), y = vec4_y<T, Tile>();
#pragma unroll
  for (int p = 0; p < kVec4Passes<T, Tile>; ++p) {
    const int ly = y + p * kVec4RowsPerPass<T, Tile>;
    Pack16<T> v;
#pragma unroll
    for (int k = 0; k < kVec4Width<T>; ++k) v.e[k] = tile[ly][x + k];
    *reinterpret_cast<Pack16<T>*>(&a.out[(row0 + ly) * a.cols + col0 + x]) = v;
  }
}

#ifndef GPGPU_CUDA_EMULATION
template <typename T, bool Staged>
void launch(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_tile_panels_shape(a.rows, a.cols);  // step 12's grid: one block per tile
  if (s.grid.y > kMaxGridY) throw std::length_error("copy_tiles: more block rows than gridDim.y allows");
  if constexpr (Staged) {
    copy_tiles_staged<T, kTransposeVec4Tile><<<s.grid, s.block, 0, stream>>>(a);
    GPGPU_CUDA_CHECK_LAUNCH("copy_tiles_staged");
  } else {
    copy_tiles<T, kTransposeVec4Tile><<<s.grid, s.block, 0, stream>>>(a);
    GPGPU_CUDA_CHECK_LAUNCH("copy_tiles");
  }
}

#endif
}  // namespace

#ifndef GPGPU_CUDA_EMULATION
template <typename T>
void launch_copy_tiles(const TransposeArgs<T>& a, cudaStream_t stream) { launch<T, false>(a, stream); }
template <typename T>
void launch_copy_tiles_staged(const TransposeArgs<T>& a, cudaStream_t stream) { launch<T, true>(a, stream); }
template void launch_copy_tiles<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_copy_tiles<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_copy_tiles<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
template void launch_copy_tiles_staged<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_copy_tiles_staged<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_copy_tiles_staged<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
