// Chapter 09, past the paper: 09_12_transpose_tile_panels.cu with blocks that stay. The tiles, the
// panel order and the way a tile moves are 09_12's; what changes is how many blocks there are and
// when a block issues its loads.
//
// What the step before leaves idle (reasoning from the code and the wave count, not yet a profile).
// 09_12 launches a block per tile and each block moves one tile and exits: at 8192² float 16384
// tiles, 1056 blocks resident at once (8 per SM on 132 SMs), about 15.5 waves. Between its loads
// and its stores a block has a barrier and nothing else in flight: once its 16 KiB of loads are
// back, it stages them, waits, stores and exits, and its slot on the SM has no loads in flight until
// the next block has started and issued its own. The last wave is half full, so the SMs share the
// last ~3% of the time (half a wave in 15.5) unevenly.
//
// The design:
// - a grid of as many blocks as the GPU keeps resident at once (blocks per SM, from the occupancy
//   API for this kernel, times the SMs; fewer when there are fewer tiles); block b moves tiles b,
//   b + gridDim.x, b + 2 gridDim.x, ... in 09_12's panel order, so that the blocks resident at any
//   time cover a block of tiles. There is no tail of half a wave: on the H200 (5 blocks per SM, 660
//   blocks) every block takes 24 or 25 tiles at 8192²;
// - the loads of a block's next tile are issued right after the barrier that completes the current
//   tile in shared memory, before the current tile's stores: a tile's loads are in flight while the
//   block reads the tile and stores it, and while it waits at the barrier that frees the tile. The
//   next tile waits in registers (16 floats per thread, as 09_11's loads did) and one shared tile
//   suffices: it is free once every thread has read it, which the second barrier guarantees;
// - a tile the matrix cuts takes 09_10's element loops, as in 09_11, and loads nothing ahead: the
//   next tile's vectors are loaded after its barrier all the same.
#include "launchers.hpp"
#include "tile_vec4.hpp"

#include <algorithm>
#include <cstdint>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

inline constexpr int kVec4Threads = kVec4WarpVectors * kVec4WarpRows * kVec4Warps;

//! [transpose_persistent]
template <typename T, int Tile, typename Shared = T>
__global__ void __launch_bounds__(kVec4Threads) transpose_persistent(TransposeArgs<T> a) {
  __shared__ Shared tile[Tile][Tile + 1];
  const int tiles_x = (a.cols + Tile - 1) / Tile, tiles_y = (a.rows + Tile - 1) / Tile, tiles = tiles_x * tiles_y;
  const int step = static_cast<int>(gridDim.x);
  int id = static_cast<int>(blockIdx.x);
  if (id >= tiles) return;  // the whole block: no barrier is skipped by some of its threads
  TileAt t = panel_tile(id, tiles_x, tiles_y);
  TileVectors<T, Tile> next;  // the block's next tile on its way from global memory
  if (vec4_tile<T, Tile>(a, t.down * Tile, t.across * Tile))
    load_tile_vec4<T, Tile>(a, next, t.down * Tile, t.across * Tile);
  for (; id < tiles; id += step) {  // tiles down the panels, a grid's width apart
    const int row0 = t.down * Tile, col0 = t.across * Tile;
    const bool vectors = vec4_tile<T, Tile>(a, row0, col0);
    if (vectors) stage_tile_vec4<T, Tile>(tile, next);
    else load_tile_edge<T, Tile>(a, tile, row0, col0);
    __syncthreads();
    if (id + step < tiles) {  // the next tile's loads, issued before this tile's stores
      t = panel_tile(id + step, tiles_x, tiles_y);
      if (vec4_tile<T, Tile>(a, t.down * Tile, t.across * Tile))
        load_tile_vec4<T, Tile>(a, next, t.down * Tile, t.across * Tile);
    }
    if (vectors) store_tile_vec4<T, Tile>(a, tile, row0, col0);
    else store_tile_edge<T, Tile>(a, tile, row0, col0);
    __syncthreads();  // every thread has read the tile before the next is staged into it
  }
}
//! [transpose_persistent]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
// The blocks the current device keeps resident at once: its SMs times what the occupancy API allows
// this kernel per SM (its registers and its shared tile decide; the carveout is left to the driver,
// as in 09_11). At most one block per tile.
template <typename T>
LaunchShape transpose_persistent_shape(int rows, int cols) {
  int device = 0, sms = 0, per_sm = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_persistent<T, kTransposeVec4Tile>,
                                                                 kVec4Threads, 0));
  const long long tiles = static_cast<long long>(blocks_for(rows, kTransposeVec4Tile)) * blocks_for(cols, kTransposeVec4Tile);
  const long long resident = static_cast<long long>(sms) * std::max(per_sm, 1);
  return {dim3(static_cast<unsigned>(std::max(1LL, std::min(tiles, resident)))),
          dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps)};
}

template <typename T>
void launch_transpose_persistent(const TransposeArgs<T>& a, const LaunchShape& s, cudaStream_t stream) {
  transpose_persistent<T, kTransposeVec4Tile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_persistent");
}
template LaunchShape transpose_persistent_shape<float>(int, int);
template LaunchShape transpose_persistent_shape<double>(int, int);
template LaunchShape transpose_persistent_shape<std::int32_t>(int, int);
template void launch_transpose_persistent<float>(const TransposeArgs<float>&, const LaunchShape&, cudaStream_t);
template void launch_transpose_persistent<double>(const TransposeArgs<double>&, const LaunchShape&, cudaStream_t);
template void launch_transpose_persistent<std::int32_t>(const TransposeArgs<std::int32_t>&, const LaunchShape&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
