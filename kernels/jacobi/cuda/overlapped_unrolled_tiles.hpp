/// @file overlapped_unrolled_tiles.hpp
/// @brief The tiles of chapter 07c's step 3 (07c_03_overlapped_unrolled.cu, whose header says how
/// and why they are laid out), as one device function that a block calls for a sequence of tiles:
/// step 3's kernel for the tiles of its launch, step 6 (07c_06_overlapped_persistent.cu) for the
/// tiles of every trip of its one launch, step 7 (07c_07_overlapped_scaled.cu) with ω / c on chip
/// instead of c. One body for all three, so steps 3 and 6 compute the same bits. And the choice of
/// the kernels' instances for a launch, which all three launchers make.
#pragma once
#include <stdexcept>
#include <string>
#include <type_traits>

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

namespace gpgpu::jacobi::cuda {

/// The block of both kernels for a loaded width of `width` columns (64, 128 or 256): a thread per
/// column, and as many rows of threads as make 256 threads.
inline dim3 overlapped_unrolled_block(int width) { return dim3(width, width >= 256 ? 1 : 256 / width); }

//! [tiles]
inline constexpr int kRowPlanes = kStoredPlanes + 1;  // c, e, nw, n, ne, f, x and the other iterate, per row

template <int n>
using Rows = std::integral_constant<int, n>;  // a row count known at compile time

// kWidth: loaded columns, tile.x + 2 hx; blockDim.x == kWidth, a thread per column. kRows: rows a
// thread updates per step (2 or 4). The block takes tiles first, first + stride, ... of the grid's
// tiles, numbered row by row (tile % tiles_x is the tile's column), with x loaded as kIterate says,
// and each update dividing by c or multiplying by ω / c as kDiagonal says.
template <int kWidth, int kRows, IterateLoad kIterate, Diagonal kDiagonal = Diagonal::divide>
__device__ __forceinline__ void overlapped_unrolled_tiles(const SymmetricArgs& a, int sweeps, int tile_y, int first,
                                                          int stride) {
  constexpr int kRow = kRowPlanes * kWidth;  // floats from one on-chip row to the next
  constexpr int E = 1 * kWidth, NW = 2 * kWidth, N = 3 * kWidth, NE = 4 * kWidth, F = 5 * kWidth;  // C = 0
  const int hx = halo_columns(sweeps);
  const int tile_x = kWidth - 2 * hx;
  const int lh = tile_y + 2 * sweeps;
  const int tiles_x = (a.nx + tile_x - 1) / tile_x;
  float* const shared = block_shared();
  const Planes planes = planes_at(shared, kWidth);  // plane p of row r: shared + r * kRow + p * kWidth
  const int col = threadIdx.x;
  // Tile `first`, then every stride-th, walked by grid column and row (a division per tile would
  // cost registers the update needs): each step moves stride % tiles_x tiles right, wrapping into
  // the next row, and stride / tiles_x rows of tiles up.
  const int step_x = stride % tiles_x * tile_x, step_y = stride / tiles_x * tile_y;
  int col0 = first % tiles_x * tile_x - hx;  // grid column of on-chip column 0
  for (int j0 = first / tiles_x * tile_y; j0 < a.ny; j0 += step_y) {
    const int i = col0 + col;
    const bool column_in_grid = i >= 0 && i < a.nx;
    const int row0 = j0 - sweeps;
    load_tile<kIterate, kDiagonal>(a, col0, row0, kWidth, lh, planes, kRow);
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
          v[k] = diagonal_update<kDiagonal>(coupling, xn, xs[k + 1][1], q[0], q[F], a.omega);  // q[0]: c or ω / c
        }
#pragma unroll
        for (int k = 0; k < n; ++k) {
          const int j = row0 + r + k;
          // Outside the grid a node keeps zero (its coefficients are zero, and 0/0 would be NaN; its
          // ω / c is zero, but the select stays, whatever the update computed there).
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
    col0 += step_x;
    if (col0 >= tiles_x * tile_x - hx) {
      col0 -= tiles_x * tile_x;
      j0 += tile_y;
    }
  }
}
//! [tiles]

/// The instance of a kernel template of these tiles that a launch needs: `pick` is a lambda
/// [](auto w, auto r) returning the kernel built for decltype(w)::value loaded columns and
/// decltype(r)::value rows per step, and this calls it with both as std::integral_constant for
/// `width` (64, 128 or 256) and `rows_per_step` (2 or 4). Anything else throws
/// std::invalid_argument, its message starting with `who`.
template <class Pick>
auto unrolled_instance(int width, int rows_per_step, const char* who, Pick pick) {
  if (rows_per_step != 2 && rows_per_step != 4) throw std::invalid_argument(std::string(who) + ": rows per step is not 2 or 4");
  const auto with_rows = [&](auto w) { return rows_per_step == 4 ? pick(w, Rows<4>{}) : pick(w, Rows<2>{}); };
  switch (width) {
    case 64: return with_rows(std::integral_constant<int, 64>{});
    case 128: return with_rows(std::integral_constant<int, 128>{});
    case 256: return with_rows(std::integral_constant<int, 256>{});
    default: throw std::invalid_argument(std::string(who) + ": the loaded width is not 64, 128 or 256");
  }
}

#ifndef GPGPU_CUDA_EMULATION
/// A kernel whose launch is one trip over every tile (steps 3 and 7): kernel(a, sweeps, tile.y).
using TilesKernel = void (*)(SymmetricArgs, int, int);
/// Launches it as step 3 does (07c_03_overlapped_unrolled.cu): a grid as wide as a row of tiles,
/// overlapped_unrolled_block's threads, the tile's shared memory; `name` in a failed launch's
/// message. Throws std::invalid_argument for an odd tile height.
void launch_tiles(TilesKernel kernel, const char* name, const SymmetricArgs& a, int sweeps, TemporalTile tile,
                  cudaStream_t stream);
#endif

}  // namespace gpgpu::jacobi::cuda
