// Chapter 07c, step 1: overlapped tiles. 07b_04_symmetric.cu reads 32 bytes per node for every sweep,
// though the coefficients and f never change. Here a block loads its output tile of tile.x x tile.y
// nodes with a halo of s rings (s = sweeps per launch), every stored array and the iterate, into
// shared memory once, and sweeps s times there, ping-ponging between two on-chip iterates with a
// barrier between sweeps. Sweep t (0-based) updates the tile grown by s-1-t rings: its neighbours
// were valid after sweep t-1, so the valid region shrinks by one ring per sweep, and after s sweeps
// exactly the tile is right; the last sweep stores it to x_new. Neighbouring tiles recompute each
// other's halo: that is the price of reading each coefficient once per s sweeps.
//
// The halo in x is rounded up to hx = 4*ceil(s/4) columns, so that every row of the block starts on
// a float4 boundary and loads as whole float4s. For a T x T tile (tile.x = tile.y = T), per node and
// sweep:
//   traffic  = [28 B * (T+2hx)(T+2s) + 4 B * T²] / T² / s  (seven arrays loaded, x_new stored, per s sweeps)
//   redundant updates per s sweeps: Σ_{t<s} (T+2(s-1-t))² - s T²   (the halo rings swept again)
// At T = 64: s = 1 moves 1.14x the one-sweep bytes (the halo) for nothing; s = 4 about 0.31x (9.9 B);
// s = 8 about 0.19x (6.0 B) with 24% more updates. Shared memory bounds s: 8 planes of
// (tile.x+2hx)(tile.y+2s) floats must fit into what one block may have (overlapped_shared_bytes).
#include "launchers.hpp"

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {

// A block of 32 x 8 threads: a warp per row of the tile, so that a warp reads and writes 32
// consecutive floats of one on-chip row (no bank conflicts) and stores 32 consecutive floats of x_new.
constexpr int kOverlappedBlockX = 32;
constexpr int kOverlappedBlockY = 8;

namespace {

//! [kernel]
__global__ void jacobi_overlapped(SymmetricArgs a, int sweeps, int tile_x, int tile_y) {
  const int hx = halo_columns(sweeps);  // s, rounded up to whole float4s
  const int lw = tile_x + 2 * hx;        // loaded width: a multiple of 4
  const int lh = tile_y + 2 * sweeps;    // loaded height
  const Planes on_chip = planes_at(block_shared(), lw * lh);
  float* const other = block_shared() + kStoredPlanes * lw * lh;  // the second on-chip iterate
  const int col0 = blockIdx.x * tile_x - hx;  // grid column of on-chip column 0
  for (int j0 = blockIdx.y * tile_y; j0 < a.ny; j0 += gridDim.y * tile_y) {
    const int row0 = j0 - sweeps;  // grid row of on-chip row 0
    load_tile(a, col0, row0, lw, lh, on_chip, lw);  // the tile and its halo, every plane
    __syncthreads();
    for (int t = 0; t < sweeps; ++t) {
      const int ring = sweeps - 1 - t;  // this sweep updates the tile and `ring` rings around it
      const float* from = t % 2 == 0 ? on_chip.x() : other;
      float* to = t % 2 == 0 ? other : on_chip.x();
      for (int r = sweeps - ring + threadIdx.y; r < sweeps + tile_y + ring; r += blockDim.y)
        for (int col = hx - ring + threadIdx.x; col < hx + tile_x + ring; col += blockDim.x) {
          const int i = col0 + col, j = row0 + r, m = r * lw + col;
          // Outside the grid a node keeps zero (its coefficients are zero, and 0/0 would be NaN).
          const float v = in_grid(a, i, j) ? symmetric_update_at(on_chip.c(), on_chip.e(), on_chip.nw(), on_chip.n(),
                                                                   on_chip.ne(), on_chip.f(), from, m, lw, a.omega)
                                           : 0.0f;
          if (ring > 0) {
            to[m] = v;
          } else if (in_grid(a, i, j)) {  // the last sweep: the tile itself, straight to memory
            a.x_new[static_cast<long long>(j) * a.pitch + i] = v;
          }
        }
      __syncthreads();  // the next sweep reads this one's values; the next tile's loads overwrite them
    }
  }
}
//! [kernel]

}  // namespace

std::size_t overlapped_shared_bytes(int sweeps, TemporalTile tile) {
  const auto hx = static_cast<std::size_t>(halo_columns(sweeps));
  return (kStoredPlanes + 1) * (tile.x + 2 * hx) * (tile.y + 2 * static_cast<std::size_t>(sweeps)) * sizeof(float);
}

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_overlapped(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream) {
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_overlapped, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  const dim3 grid(blocks_for(a.nx, tile.x), grid_rows(blocks_for(a.ny, tile.y)));
  jacobi_overlapped<<<grid, dim3(kOverlappedBlockX, kOverlappedBlockY), shared, stream>>>(a, sweeps, tile.x, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_overlapped");
}

int overlapped_blocks_per_sm(int sweeps, TemporalTile tile) {
  int blocks = 0;
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_overlapped, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, jacobi_overlapped,
                                                                 kOverlappedBlockX * kOverlappedBlockY, shared));
  return blocks;
}
#endif

}  // namespace gpgpu::jacobi::cuda
