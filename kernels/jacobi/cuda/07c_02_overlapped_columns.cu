// Chapter 07c, step 2: 07c_01_overlapped.cu with each thread walking one column of the tile. The
// tile, its halo, the loads and the shrinking sweeps are step 1's; what changes is who updates which
// node. In step 1 a thread updates scattered nodes and reads all nineteen values of each update from
// shared memory (nine of x, ten coefficients). Here thread x of the block owns on-chip column x and
// walks up a run of rows, as 07b_03_multirow.cu walks its rows: the rows below and at the node stay
// in registers from the previous step, so an update reads three values of x (the row above) and
// nine coefficients (S is the previous row's N), twelve loads instead of nineteen, and no index
// arithmetic beyond one add per row. Shared memory's load instructions, not DRAM, limited step 1
// (it sweeps each on-chip node s times for every time it loads it); the fewer of them per update,
// the faster the sweeps.
//
// The block is as wide as the loaded tile, tile.x + 2 hx columns rounded up to whole warps, so that a
// warp reads 32 consecutive floats of one on-chip row; its blockDim.y groups split each sweep's rows
// into runs. Traffic and redundant work are step 1's (its header has the model).
#include "launchers.hpp"

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_overlapped_columns(SymmetricArgs a, int sweeps, int tile_x, int tile_y) {
  const int hx = halo_columns(sweeps);  // as step 1
  const int lw = tile_x + 2 * hx;       // loaded width
  const int lh = tile_y + 2 * sweeps;   // loaded height
  const Planes on_chip = planes_at(block_shared(), lw * lh);
  float* const other = block_shared() + kStoredPlanes * lw * lh;
  const int col0 = blockIdx.x * tile_x - hx;
  for (int j0 = blockIdx.y * tile_y; j0 < a.ny; j0 += gridDim.y * tile_y) {
    const int row0 = j0 - sweeps;
    load_tile(a, col0, row0, lw, lh, on_chip, lw);
    __syncthreads();
    for (int t = 0; t < sweeps; ++t) {
      const int ring = sweeps - 1 - t;
      const float* from = t % 2 == 0 ? on_chip.x() : other;
      float* to = t % 2 == 0 ? other : on_chip.x();
      // This sweep's rows [first, last) in blockDim.y runs; its columns [hx - ring, hx + tile_x + ring).
      const int first = sweeps - ring, last = sweeps + tile_y + ring;
      const int run = (last - first + blockDim.y - 1) / blockDim.y;
      const int r_begin = first + threadIdx.y * run, r_end = min(r_begin + run, last);
      for (int col = threadIdx.x; col < lw; col += blockDim.x) {  // one pass when the block is as wide as the tile
        if (col < hx - ring || col >= hx + tile_x + ring || r_begin >= r_end) continue;
        const bool column_in_grid = col0 + col >= 0 && col0 + col < a.nx;
        int m = r_begin * lw + col;
        // The window: x of the row below and of this row at columns col-1 .. col+1, and the row
        // below's N, which is this row's S.
        float below[3] = {from[m - lw - 1], from[m - lw], from[m - lw + 1]};
        float mid[3] = {from[m - 1], from[m], from[m + 1]};
        float s = on_chip.n()[m - lw];
        for (int r = r_begin; r < r_end; ++r, m += lw) {
          const float above[3] = {from[m + lw - 1], from[m + lw], from[m + lw + 1]};
          const float n = on_chip.n()[m];
          const Neighbours coupling{on_chip.ne()[m - lw - 1], s, on_chip.nw()[m - lw + 1], on_chip.e()[m - 1],
                                    on_chip.e()[m], on_chip.nw()[m], n, on_chip.ne()[m]};
          const Neighbours x{below[0], below[1], below[2], mid[0], mid[2], above[0], above[1], above[2]};
          const bool inside = column_in_grid && row0 + r >= 0 && row0 + r < a.ny;
          // Outside the grid a node keeps zero (its coefficients are zero, and 0/0 would be NaN).
          const float v = inside ? symmetric_update(coupling, x, mid[1], on_chip.c()[m], on_chip.f()[m], a.omega) : 0.0f;
          if (ring > 0)
            to[m] = v;
          else if (inside)  // the last sweep: the tile itself, straight to memory
            a.x_new[static_cast<long long>(row0 + r) * a.pitch + col0 + col] = v;
          s = n;
#pragma unroll
          for (int k = 0; k < 3; ++k) below[k] = mid[k], mid[k] = above[k];
        }
      }
      __syncthreads();  // the next sweep reads this one's values; the next tile's loads overwrite them
    }
  }
}
//! [kernel]

}  // namespace

/// Threads per block: the loaded width in whole warps, and as many row runs as keep the block near
/// 256 threads (at least one).
dim3 overlapped_columns_block(int sweeps, TemporalTile tile) {
  const int hx = halo_columns(sweeps);
  const int width = (tile.x + 2 * hx + 31) / 32 * 32;
  return dim3(static_cast<unsigned>(width), static_cast<unsigned>(width >= 256 ? 1 : 256 / width));
}

#ifndef GPGPU_CUDA_EMULATION  // tests/test_07c_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_overlapped_columns(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream) {
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_overlapped_columns, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  const dim3 grid(blocks_for(a.nx, tile.x), grid_rows(blocks_for(a.ny, tile.y)));
  jacobi_overlapped_columns<<<grid, overlapped_columns_block(sweeps, tile), shared, stream>>>(a, sweeps, tile.x, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_overlapped_columns");
}
#endif

}  // namespace gpgpu::jacobi::cuda
