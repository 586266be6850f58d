// Chapter 07c, step 3: 07c_02_overlapped_columns.cu with the instructions counted. The body of its
// row loop has about 80 instructions per update: an address register for every plane (the planes
// lie a run-time size apart), a branch around the update for nodes outside the grid, and register
// moves for the window of rows shifting up. Only about 35 of them are the update's own loads and
// arithmetic, and the sweeps are bound by instruction issue, not by memory. Three changes:
// - The loaded width is a template parameter (64, 128 or 256 columns) and the on-chip rows are
//   interleaved: row r holds its eight planes one after the other (c, e, nw, n, ne, f, x, the other
//   x), kWidth floats each. Every value a thread reads is then at a compile-time offset from one
//   address: one register and an immediate per load, no arithmetic.
// - A thread updates kRows rows per step (r .. r+kRows-1; 2 or 4, a template parameter the host
//   code tunes), with no window carried from step to step: it loads rows r-1 .. r+kRows of x once
//   for all of them, and nothing needs shifting. Two rows take 12 loads of x, four take 18 instead
//   of 24; the coefficient N of a row, read again as the S coupling of the row above it, is loaded
//   once per step. Each sweep covers tile.y + 2*ring rows, an even count when tile.y is even (which
//   the host code checks); with four rows per step a sweep may end with two rows left, which the
//   same body, built for two rows, updates.
// - Nodes outside the grid are updated like the others and then replaced by zero (a select, not a
//   branch).
// Traffic, redundancy and shared memory are those of step 1 (its header has the model).
#include "launchers.hpp"

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

#include <stdexcept>
#include <type_traits>

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
constexpr int kRowPlanes = kStoredPlanes + 1;  // c, e, nw, n, ne, f, x and the other iterate, per row

template <int n>
using Rows = std::integral_constant<int, n>;  // a row count known at compile time

// kWidth: loaded columns, tile.x + 2 hx; blockDim.x == kWidth, a thread per column. kRows: rows a
// thread updates per step (2 or 4).
template <int kWidth, int kRows>
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
      // Rows r .. r+n-1 of this sweep at this thread's column, n known at compile time.
      const auto update_rows = [&](int r, auto rows) {
        constexpr int n = decltype(rows)::value;
        const float* p = shared + r * kRow + col;  // row r, plane c; row r+k is p + k * kRow
        const float* x = p + from;
        float xs[n + 2][3];  // x at rows r-1 .. r+n, columns col-1 .. col+1
#pragma unroll
        for (int k = 0; k < n + 2; ++k)
#pragma unroll
          for (int d = 0; d < 3; ++d) xs[k][d] = x[(k - 1) * kRow + d - 1];
        float v[n];
#pragma unroll
        for (int k = 0; k < n; ++k) {
          const float* q = p + k * kRow;  // row r+k; its S coupling q[N - kRow] is row r+k-1's N, loaded once
          const Neighbours coupling{q[NE - kRow - 1], q[N - kRow], q[NW - kRow + 1], q[E - 1], q[E], q[NW], q[N], q[NE]};
          const Neighbours xn{xs[k][0],     xs[k][1],     xs[k][2],     xs[k + 1][0],
                              xs[k + 1][2], xs[k + 2][0], xs[k + 2][1], xs[k + 2][2]};
          v[k] = symmetric_update(coupling, xn, xs[k + 1][1], q[0], q[F], a.omega);
        }
#pragma unroll
        for (int k = 0; k < n; ++k) {
          const int j = row0 + r + k;
          // Outside the grid a node keeps zero (its coefficients are zero, and 0/0 would be NaN).
          const bool inside = column_in_grid && j >= 0 && j < a.ny;
          if (ring > 0)
            shared[(r + k) * kRow + col + to] = inside ? v[k] : 0.0f;
          else if (inside)  // the last sweep: the tile itself, straight to memory
            a.x_new[static_cast<long long>(j) * a.pitch + i] = v[k];
        }
      };
      const bool active = col >= hx - ring && col < hx + tile_x + ring;
      const int last = sweeps + tile_y + ring;  // this sweep's rows: [sweeps - ring, last), an even count
      for (int r = sweeps - ring + kRows * threadIdx.y; active && r < last; r += kRows * blockDim.y) {
        if (kRows == 2 || r + kRows <= last)
          update_rows(r, Rows<kRows>{});
        else  // tile.y + 2*ring need not be a multiple of kRows: the sweep's last two rows
          update_rows(r, Rows<2>{});
      }
      __syncthreads();  // the next sweep reads this one's values; the next tile's loads overwrite them
    }
  }
}
//! [kernel]

}  // namespace

/// The loaded widths and the rows per step the kernel is built for; a launch must use one of each.
bool overlapped_unrolled_width(int width) { return width == 64 || width == 128 || width == 256; }
bool overlapped_unrolled_rows(int rows_per_step) { return rows_per_step == 2 || rows_per_step == 4; }

#ifndef GPGPU_CUDA_EMULATION  // tests/test_07c_kernels_emulated.cpp runs the kernel above on the CPU
namespace {
template <int kWidth, int kRows>
void launch(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream) {
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_overlapped_unrolled<kWidth, kRows>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  const dim3 grid(blocks_for(a.nx, tile.x), grid_rows(blocks_for(a.ny, tile.y)));
  const dim3 block(kWidth, kWidth >= 256 ? 1 : 256 / kWidth);
  jacobi_overlapped_unrolled<kWidth, kRows><<<grid, block, shared, stream>>>(a, sweeps, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_overlapped_unrolled");
}

template <int kWidth>
void launch(const SymmetricArgs& a, int sweeps, TemporalTile tile, int rows_per_step, cudaStream_t stream) {
  if (rows_per_step == 4)
    launch<kWidth, 4>(a, sweeps, tile, stream);
  else
    launch<kWidth, 2>(a, sweeps, tile, stream);
}
}  // namespace

void launch_jacobi_overlapped_unrolled(const SymmetricArgs& a, int sweeps, TemporalTile tile, int rows_per_step,
                                       cudaStream_t stream) {
  if (!overlapped_unrolled_rows(rows_per_step))
    throw std::invalid_argument("launch_jacobi_overlapped_unrolled: rows per step is not 2 or 4");
  if (tile.y % 2 != 0) throw std::invalid_argument("launch_jacobi_overlapped_unrolled: the tile's height is odd");
  switch (tile.x + 2 * halo_columns(sweeps)) {
    case 64: launch<64>(a, sweeps, tile, rows_per_step, stream); break;
    case 128: launch<128>(a, sweeps, tile, rows_per_step, stream); break;
    case 256: launch<256>(a, sweeps, tile, rows_per_step, stream); break;
    default: throw std::invalid_argument("launch_jacobi_overlapped_unrolled: the loaded width is not 64, 128 or 256");
  }
}
#endif

}  // namespace gpgpu::jacobi::cuda
