// Chapter 07c, step 6: step 3's tiles, every full trip of a run in one cooperative launch. Step 3
// is launched once per trip of s sweeps, and each launch pays at both ends: its last tiles run
// while most SMs have nothing left to do, and the next launch starts, then loads its first tiles,
// before any SM updates a node. Here a grid of as many blocks as are resident on the GPU at once
// runs every trip: each block takes its tiles of the trip (step 3's tile body,
// overlapped_unrolled_tiles.hpp, the same bits), then every block meets at a grid-wide barrier
// (cooperative_groups::this_grid().sync()), the two iterates swap roles, and the next trip begins.
// A trip's end is then a barrier, not a kernel boundary: a block whose tiles are done waits there,
// but no launch starts and the next trip's first tiles follow at once. The tile's x comes through
// the L2 (__ldcg), not the read-only cache, which is not kept coherent with what the other blocks
// wrote before the barrier. Traffic, redundancy and shared memory per tile are step 3's.
#include "launchers.hpp"

#ifndef GPGPU_CUDA_EMULATION
#include <cooperative_groups.h>
#endif

#include "overlapped_unrolled_tiles.hpp"

#include "gpgpu/cuda/check.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
template <int kWidth, int kRows>
__global__ void jacobi_overlapped_persistent(TripArgs a, int sweeps, int tile_y) {
  SymmetricArgs s = a.sys;
  for (int trip = 0; trip < a.trips; ++trip) {
    // Chosen by a condition, not indexed: a.x[trip % 2] would copy the arguments to local memory.
    s.x = trip % 2 == 0 ? a.x[0] : a.x[1];
    s.x_new = trip % 2 == 0 ? a.x[1] : a.x[0];
    // Block b takes tiles b, b + gridDim.x, ... of the trip; x through the L2: other blocks wrote it.
    overlapped_unrolled_tiles<kWidth, kRows, IterateLoad::through_l2>(s, sweeps, tile_y, blockIdx.x, gridDim.x);
    if (trip + 1 < a.trips) cooperative_groups::this_grid().sync();  // every tile written before any is read
  }
}
//! [kernel]

}  // namespace

int overlapped_persistent_blocks(long long tiles, int blocks_per_sm, int sm_count) {
  const long long resident = static_cast<long long>(blocks_per_sm) * sm_count;
  if (tiles <= resident) return static_cast<int>(std::max(tiles, 1LL));  // a tile each
  // A trip lasts as long as the block with the most tiles: ceil(tiles / blocks) of them, `rounds`
  // for every grid from ceil(tiles / rounds) blocks up to `resident`. The grid takes the fewest of
  // those, rounded up to whole SMs (each SM holding as many blocks as the others): then every
  // block takes `rounds` tiles or one fewer and few blocks sit at the barrier with nothing to do,
  // where `resident` blocks may leave a last round of a few tiles with the rest waiting. On grids of
  // many tiles the two are the same grid (2048² in step 3's tuned 56x16 tiles, 4736 of them, at two,
  // three or four blocks per SM of 132); where they differ, whether the fewer warps per SM cost more
  // than the even last round saves has not been measured.
  const long long rounds = (tiles + resident - 1) / resident;
  const long long even = (tiles + rounds - 1) / rounds;
  const long long whole_sms = (even + sm_count - 1) / sm_count * sm_count;
  return static_cast<int>(std::min(resident, whole_sms));
}

#ifndef GPGPU_CUDA_EMULATION  // tests/test_07c_kernels_emulated.cpp runs the kernel above on the CPU
namespace {

using TripKernel = void (*)(TripArgs, int, int);

/// The kernel built for a loaded width (64, 128 or 256) and rows per step (2 or 4), its shared
/// memory limit raised to `shared` bytes.
TripKernel trip_kernel(int width, int rows_per_step, std::size_t shared) {
  const TripKernel k = unrolled_instance(width, rows_per_step, "overlapped_persistent", [](auto w, auto r) {
    return jacobi_overlapped_persistent<decltype(w)::value, decltype(r)::value>;
  });
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  return k;
}

}  // namespace

int overlapped_persistent_blocks_per_sm(int sweeps, TemporalTile tile, int rows_per_step) {
  const int width = tile.x + 2 * halo_columns(sweeps);
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  const dim3 block = overlapped_unrolled_block(width);
  int blocks = 0;
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, trip_kernel(width, rows_per_step, shared),
                                                                 static_cast<int>(block.x * block.y), shared));
  return blocks;
}

void launch_jacobi_overlapped_persistent(const TripArgs& a, int sweeps, TemporalTile tile, int rows_per_step, int blocks,
                                         cudaStream_t stream) {
  if (tile.y % 2 != 0) throw std::invalid_argument("overlapped_persistent: the tile's height is odd");
  const int width = tile.x + 2 * halo_columns(sweeps);
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  const TripKernel kernel = trip_kernel(width, rows_per_step, shared);
  TripArgs args = a;
  void* params[] = {&args, &sweeps, &tile.y};
  GPGPU_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                               overlapped_unrolled_block(width), params, shared, stream));
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_overlapped_persistent");
}
#endif

}  // namespace gpgpu::jacobi::cuda
