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
// The tiles themselves are overlapped_unrolled_tiles.hpp, which step 6 (07c_06_overlapped_persistent.cu)
// and step 7 (07c_07_overlapped_scaled.cu) run too; the kernel below hands its block the tiles of its
// launch, and its launch (launch_tiles) is step 7's too.
#include "launchers.hpp"

#include "overlapped_unrolled_tiles.hpp"

#include "gpgpu/cuda/check.hpp"

#include <stdexcept>
#include <string>

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
template <int kWidth, int kRows>
__global__ void jacobi_overlapped_unrolled(SymmetricArgs a, int sweeps, int tile_y) {
  // Block (x, y) takes tile x of tile rows y, y + gridDim.y, ...: the grid is as wide as a row of
  // tiles, and tiles are numbered row by row.
  overlapped_unrolled_tiles<kWidth, kRows, IterateLoad::read_only>(a, sweeps, tile_y, blockIdx.y * gridDim.x + blockIdx.x,
                                                                    gridDim.x * gridDim.y);
}
//! [kernel]

}  // namespace

/// The loaded widths and the rows per step the kernel is built for; a launch must use one of each.
bool overlapped_unrolled_width(int width) { return width == 64 || width == 128 || width == 256; }
bool overlapped_unrolled_rows(int rows_per_step) { return rows_per_step == 2 || rows_per_step == 4; }

#ifndef GPGPU_CUDA_EMULATION  // tests/test_07c_kernels_emulated.cpp runs the kernel above on the CPU
void launch_tiles(TilesKernel kernel, const char* name, const SymmetricArgs& a, int sweeps, TemporalTile tile,
                  cudaStream_t stream) {
  if (tile.y % 2 != 0) throw std::invalid_argument(std::string(name) + ": the tile's height is odd");
  const int width = tile.x + 2 * halo_columns(sweeps);
  const std::size_t shared = overlapped_shared_bytes(sweeps, tile);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  const dim3 grid(blocks_for(a.nx, tile.x), grid_rows(blocks_for(a.ny, tile.y)));
  kernel<<<grid, overlapped_unrolled_block(width), shared, stream>>>(a, sweeps, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH(name);
}

void launch_jacobi_overlapped_unrolled(const SymmetricArgs& a, int sweeps, TemporalTile tile, int rows_per_step,
                                       cudaStream_t stream) {
  const TilesKernel kernel =
      unrolled_instance(tile.x + 2 * halo_columns(sweeps), rows_per_step, "launch_jacobi_overlapped_unrolled",
                        [](auto w, auto r) { return jacobi_overlapped_unrolled<decltype(w)::value, decltype(r)::value>; });
  launch_tiles(kernel, "jacobi_overlapped_unrolled", a, sweeps, tile, stream);
}
#endif

}  // namespace gpgpu::jacobi::cuda
