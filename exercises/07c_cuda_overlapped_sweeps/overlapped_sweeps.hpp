/// @file overlapped_sweeps.hpp
/// @brief Exercise 07c: what the provided kernel (overlapped_kernel.cu) hands the function you write
/// (sweep_on_chip, in sweeps_on_chip.hpp) once a tile of the grid and its halo are in shared memory:
/// the on-chip planes, a second on-chip iterate, where the tile lies, ω, and where the result goes.
/// Device code: included by the kernel's file only.
#pragma once
#include "jacobi/cuda/onchip_planes.hpp"
#include "jacobi/cuda/symmetric_update.hpp"

namespace ex07c {

using gpgpu::jacobi::cuda::Planes;
using gpgpu::jacobi::cuda::symmetric_update_at;

/// Where a block's tile and its halo lie, on chip and in the grid. Every plane (and the second
/// iterate) holds `rows` on-chip rows of `stride` floats; element r * stride + col of each is grid node
/// (col0 + col, row0 + r). The loaded region is the tile, tile_x x tile_y nodes whose first node is on
/// chip at row `sweeps`, column `halo_x`, with `sweeps` rows of halo above and below it and `halo_x`
/// columns left and right (halo_x is `sweeps` rounded up to a multiple of 4, so that each on-chip
/// row starts on a float4; the columns beyond the first `sweeps` are loaded too). Nodes outside the
/// grid hold zero in every plane.
struct OnChipTile {
  int sweeps;          ///< s: the sweeps this launch runs, and the rings of halo loaded
  int tile_x, tile_y;  ///< the nodes this block brings to the end of the launch
  int halo_x;          ///< columns loaded left and right of the tile
  int stride;          ///< floats per on-chip row: tile_x + 2 * halo_x
  int rows;            ///< on-chip rows: tile_y + 2 * sweeps
  int col0, row0;      ///< grid column and row of on-chip element 0
};

/// Where the launch's result goes: chapter 05's pitched layout, element (i, j) at x_new[j * pitch + i]
/// for 0 <= i < nx, 0 <= j < ny. Other blocks store their own tiles into the same array.
struct TileOutput {
  float* x_new;
  int pitch;
  int nx, ny;
  /// Whether node (i, j) is in the grid.
  [[nodiscard]] __host__ __device__ bool in_grid(int i, int j) const { return i >= 0 && i < nx && j >= 0 && j < ny; }
};

}  // namespace ex07c
