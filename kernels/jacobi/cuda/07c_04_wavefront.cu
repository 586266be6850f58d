// Chapter 07c, step 4: a wavefront in y, no redundant work in y. A block owns a strip of tile.x
// columns and tile.y rows and walks up it one row at a time, keeping s time levels on chip: when row
// q of the iterate (level 0) and of the coefficients arrives, level 1 is updated at row q-1, level 2
// at row q-2, ..., and level s at row q-s, which goes to memory. Each level needs three rows of the
// level below, and the coefficients rows r and r-1, so shared memory holds 3 rows per level and s+2
// rows of coefficients, whatever the height. Redundancy remains in x (the strip's halo of hx columns
// each side, recomputed by the neighbouring strips, shrinking by one column per level) and at both
// ends of a block's rows (the first s rows of each level warm up from the rows below the block, and
// the block above does them again): per node and sweep, for a strip W wide and H tall,
//   traffic  ≈ 32 B * (W+2hx)(H+2s) / (W H) / s,   hx = 4*ceil(s/4)
// At W = 128, H = 128 the halo costs 1.19x at s = 4 (9.5 B) against the overlapped tile's 1.27x at
// T = 64, with about a seventh of the shared memory; the price is s+1 barriers per row.
#include "launchers.hpp"

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {

// A block of 128 threads: consecutive threads take consecutive columns of a row.
constexpr int kWavefrontBlock = 128;

namespace {

//! [kernel]
__global__ void jacobi_wavefront(SymmetricArgs a, int sweeps, int strip, int rows) {
  const int hx = halo_columns(sweeps);
  const int lw = strip + 2 * hx;
  const int coef_rows = sweeps + 2;  // rows r-1 .. r+s of the coefficients: a ring buffer
  // The coefficient planes and level 0 hold coef_rows rows; levels 1 .. s-1 hold three rows each.
  const Planes ring = planes_at(block_shared(), coef_rows * lw);
  float* const levels = block_shared() + kStoredPlanes * coef_rows * lw;  // level l's rows at (l-1)*3*lw
  const int col0 = blockIdx.x * strip - hx;
  for (int j0 = blockIdx.y * rows; j0 < a.ny; j0 += gridDim.y * rows) {
    const int first = j0 - sweeps;      // the first row loaded
    const int last = j0 + rows + sweeps;  // one past the last row loaded
    for (int q = first; q < last; ++q) {
      for (int t = threadIdx.x; t < lw / 4; t += blockDim.x)
        load_quad(a, col0 + 4 * t, q, ring, (q - first) % coef_rows * lw + 4 * t);
      __syncthreads();
      for (int l = 1; l <= sweeps; ++l) {
        const int r = q - l;  // level l's row at this step
        const int grow = sweeps - l;  // columns it is updated on beyond the strip, each side
        // Rows first .. first+l-1 of level l would need level l-1 below `first`: not loaded.
        if (r >= first + l && r < last - l) {
          const float* below = l == 1 ? ring.x() : levels + (l - 2) * 3 * lw;  // level l-1
          const int below_rows = l == 1 ? coef_rows : 3;
          float* out = levels + (l - 1) * 3 * lw + (r - first) % 3 * lw;
          for (int col = hx - grow + threadIdx.x; col < hx + strip + grow; col += blockDim.x) {
            const int i = col0 + col;
            // The update reads rows r-1, r, r+1 of level l-1 and rows r-1, r of the coefficients.
            const int mc = (r - first) % coef_rows * lw + col;           // row r of the coefficients
            const int mb = (r - 1 - first) % coef_rows * lw + col;       // row r-1
            const int xr = (r - first) % below_rows * lw + col;
            const int xb = (r - 1 - first) % below_rows * lw + col;
            const int xa = (r + 1 - first) % below_rows * lw + col;
            float v = 0.0f;
            if (in_grid(a, i, r)) {
              const Neighbours c{ring.ne()[mb - 1], ring.n()[mb], ring.nw()[mb + 1], ring.e()[mc - 1],
                                 ring.e()[mc],     ring.nw()[mc], ring.n()[mc],     ring.ne()[mc]};
              const Neighbours x{below[xb - 1], below[xb], below[xb + 1], below[xr - 1],
                                 below[xr + 1], below[xa - 1], below[xa], below[xa + 1]};
              v = symmetric_update(c, x, below[xr], ring.c()[mc], ring.f()[mc], a.omega);
            }
            if (l < sweeps) {
              out[col] = v;
            } else if (in_grid(a, i, r)) {  // level s: rows j0 .. j0+rows-1 of the strip
              a.x_new[static_cast<long long>(r) * a.pitch + i] = v;
            }
          }
        }
        __syncthreads();  // level l+1 reads this row; the next row's loads overwrite the oldest
      }
    }
  }
}
//! [kernel]

}  // namespace

std::size_t wavefront_shared_bytes(int sweeps, TemporalTile tile) {
  const auto hx = static_cast<std::size_t>(halo_columns(sweeps));
  const std::size_t lw = tile.x + 2 * hx;
  return (kStoredPlanes * (sweeps + 2) + 3 * (static_cast<std::size_t>(sweeps) - 1)) * lw * sizeof(float);
}

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_wavefront(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream) {
  const std::size_t shared = wavefront_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_wavefront, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  const dim3 grid(blocks_for(a.nx, tile.x), grid_rows(blocks_for(a.ny, tile.y)));
  jacobi_wavefront<<<grid, kWavefrontBlock, shared, stream>>>(a, sweeps, tile.x, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_wavefront");
}
#endif

}  // namespace gpgpu::jacobi::cuda
