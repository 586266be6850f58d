// Chapter 07c, step 3: 07c_02_overlapped_columns.cu with the instructions counted. The body of its
// row loop has about 80 instructions per update: an address register for every plane (the planes
// lie a run-time size apart), a branch around the update for nodes outside the grid, and register
// moves for the window of rows shifting up. Only about 35 of them are the update's own loads and
// arithmetic, and the sweeps are bound by instruction issue, not by memory. Three changes:
// - The loaded width is a template parameter (64, 128 or 256 columns) and the on-chip rows are
//   interleaved: row r holds its eight planes one after the other (c, e, nw, n, ne, f, x, the other
//   x), kWidth floats each. Every value a thread reads is then at a compile-time offset from one
//   address: one register and an immediate per load, no arithmetic.
// - A thread updates two rows per step (r and r+1), with no window carried from step to step: it
//   loads rows r-1 .. r+2 of x once for both updates, and nothing needs shifting. Each sweep covers
//   tile.y + 2*ring rows, an even count when tile.y is even (which the host code checks).
// - Nodes outside the grid are updated like the others and then replaced by zero (a select, not a
//   branch).
// Traffic, redundancy and shared memory are those of step 1 (its header has the model).
#include "launchers.hpp"

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

#include <stdexcept>

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
constexpr int kRowPlanes = kStoredPlanes + 1;  // c, e, nw, n, ne, f, x and the other iterate, per row

template <int kWidth>  // loaded columns: tile.x + 2 hx; blockDim.x == kWidth, a thread per column
__global__ void jacobi_overlapped_unrolled(SymmetricArgs a, int sweeps, int tile_y) {
  constexpr int kRow = kRowPlanes * kWidth;  // floats from one on-chip row to the next
  constexpr int E = 1 * kWidth, NW = 2 * kWidth, N = 3 * kWidth, NE = 4 * kWidth, F = 5 * kWidth;  // C = 0
  const int hx = halo_columns(sweeps);
  const int tile_x = kWidth - 2 * hx;
  const int lh = tile_y + 2 * sweeps;
  float* const shared = block_shared();
  const Planes planes = planes_at(shared, kWidth);  // plane p of row r: shared + r * kRow + p * kWidth
  const int col = threadIdx.x;
  const int col0 = blockIdx.x * tile_x - hx;
  const int i = col0 + col;
  const bool column_in_grid = i >= 0 && i < a.nx;
  for (int j0 = blockIdx.y * tile_y; j0 < a.ny; j0 += gridDim.y * tile_y) {
    const int row0 = j0 - sweeps;
    load_tile(a, col0, row0, kWidth, lh, planes, kRow);
    __syncthreads();
    for (int t = 0; t < sweeps; ++t) {
      const int ring = sweeps - 1 - t;
      const int from = (t % 2 == 0 ? 6 : 7) * kWidth, to = (t % 2 == 0 ? 7 : 6) * kWidth;
      const bool active = col >= hx - ring && col < hx + tile_x + ring;
      for (int r = sweeps - ring + 2 * threadIdx.y; active && r < sweeps + tile_y + ring; r += 2 * blockDim.y) {
        const float* p = shared + r * kRow + col;  // row r, plane c; row r+1 is p + kRow
        const float* x = p + from;
        float xs[4][3];  // x at rows r-1 .. r+2, columns col-1 .. col+1
#pragma unroll
        for (int k = 0; k < 4; ++k)
#pragma unroll
          for (int d = 0; d < 3; ++d) xs[k][d] = x[(k - 1) * kRow + d - 1];
        const Neighbours coupling0{p[NE - kRow - 1], p[N - kRow], p[NW - kRow + 1], p[E - 1],
                                   p[E],             p[NW],       p[N],            p[NE]};
        const Neighbours coupling1{p[NE - 1],        p[N],        p[NW + 1],        p[E + kRow - 1],
                                   p[E + kRow],      p[NW + kRow], p[N + kRow],     p[NE + kRow]};
        const Neighbours x0{xs[0][0], xs[0][1], xs[0][2], xs[1][0], xs[1][2], xs[2][0], xs[2][1], xs[2][2]};
        const Neighbours x1{xs[1][0], xs[1][1], xs[1][2], xs[2][0], xs[2][2], xs[3][0], xs[3][1], xs[3][2]};
        const int j = row0 + r;
        // Outside the grid a node keeps zero (its coefficients are zero, and 0/0 would be NaN).
        const bool inside0 = column_in_grid && j >= 0 && j < a.ny, inside1 = column_in_grid && j + 1 >= 0 && j + 1 < a.ny;
        const float v0 = symmetric_update(coupling0, x0, xs[1][1], p[0], p[F], a.omega);
        const float v1 = symmetric_update(coupling1, x1, xs[2][1], p[kRow], p[F + kRow], a.omega);
        if (ring > 0) {
          float* out = shared + r * kRow + col + to;
          out[0] = inside0 ? v0 : 0.0f;
          out[kRow] = inside1 ? v1 : 0.0f;
        } else {  // the last sweep: the tile itself, straight to memory
          float* out = a.x_new + static_cast<long long>(j) * a.pitch + i;
          if (inside0) out[0] = v0;
          if (inside1) out[a.pitch] = v1;
        }
      }
      __syncthreads();  // the next sweep reads this one's values; the next tile's loads overwrite them
    }
  }
}
//! [kernel]

}  // namespace

/// The loaded widths the kernel is built for; a tile must load one of them.
bool overlapped_unrolled_width(int width) { return width == 64 || width == 128 || width == 256; }

#ifndef GPGPU_CUDA_EMULATION  // tests/test_07c_kernels_emulated.cpp runs the kernel above on the CPU
namespace {
template <int kWidth>
void launch(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream) {
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_overlapped_unrolled<kWidth>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  const dim3 grid(blocks_for(a.nx, tile.x), grid_rows(blocks_for(a.ny, tile.y)));
  const dim3 block(kWidth, kWidth >= 256 ? 1 : 256 / kWidth);
  jacobi_overlapped_unrolled<kWidth><<<grid, block, shared, stream>>>(a, sweeps, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_overlapped_unrolled");
}
}  // namespace

void launch_jacobi_overlapped_unrolled(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream) {
  switch (tile.x + 2 * halo_columns(sweeps)) {
    case 64: launch<64>(a, sweeps, tile, stream); break;
    case 128: launch<128>(a, sweeps, tile, stream); break;
    case 256: launch<256>(a, sweeps, tile, stream); break;
    default: throw std::invalid_argument("launch_jacobi_overlapped_unrolled: the loaded width is not 64, 128 or 256");
  }
}
#endif

}  // namespace gpgpu::jacobi::cuda
