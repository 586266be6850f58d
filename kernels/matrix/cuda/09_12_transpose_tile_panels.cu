// Chapter 09, past the paper: 09_11_transpose_tile_vec4.cu with the tiles taken in panels. The kernel
// moves a tile exactly as 09_11 does; only which tile a block moves changes.
//
// What the order changes. The GPU starts blocks in the order of their number, blockIdx.y * gridDim.x
// + blockIdx.x, and keeps about 8 per SM resident (1056 on 132 SMs). In 09_11 block number b moves
// the tile of row b / gridDim.x and column b % gridDim.x: the resident blocks cover about eight rows
// of tiles at 8192² (128 tiles to a row; four at 16384²). Their reads are whole rows of the input,
// but each block writes 256 B into each of 64 rows of the output, at the column of its tile row: a
// row of the output gets 8 x 256 B = 2 KiB next to each other from the resident blocks (1 KiB at
// 16384²), and its next 2 KiB only after every other row of the output had its turn. DRAM serves a burst inside an open row (page) of a bank
// cheaply and pays for every row it opens, so short runs of writes spread over many pages cost
// bandwidth that the copy, whose reads and writes both run straight, does not pay.
//
// The panel order numbers the tiles down panels of kPanelTiles = 32 tile columns: block b moves the
// tile b % 32 across and b / 32 down the first panel, then the next panel. The resident blocks then
// cover a square of about 33 x 32 tiles (2112 x 2048 elements): each row of the input gives 32 tiles
// x 256 B = 8 KiB in a run, each row of the output gets 33 x 256 B ≈ 8 KiB in a run: four times the
// writes' runs of the step before at 8192² (eight at 16384²), the reads' runs cut from whole rows to
// 8 KiB, the same for both at every size with more than 32 tile columns. The bytes in
// flight stay 09_11's: 16 KiB of loads per block before its barrier, 8 blocks per SM (128 KiB), well
// above the ~25 KiB per SM that Little's law asks at ~4 TB/s and ~800 ns. The last panel is
// narrower when 32 does not divide the tile columns; a matrix of at most 32 tile columns is one panel,
// 09_11's order.
#include "launchers.hpp"
#include "tile_vec4.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_tile_panels]
template <typename T, int Tile, typename Shared = T>
__global__ void transpose_tile_panels(TransposeArgs<T> a) {
  __shared__ Shared tile[Tile][Tile + 1];
  const TileAt t = panel_tile(static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x), static_cast<int>(gridDim.x),
                              static_cast<int>(gridDim.y));
  move_tile_vec4<T, Tile>(a, tile, t.down * Tile, t.across * Tile);  // tiles down the panels
}
//! [transpose_tile_panels]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
// 09_11's grid: the kernel numbers its blocks itself.
LaunchShape transpose_tile_panels_shape(int rows, int cols) { return transpose_tile_vec4_shape(rows, cols); }

template <typename T>
void launch_transpose_tile_panels(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_tile_panels_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("transpose_tile_panels: more block rows than gridDim.y allows");
  transpose_tile_panels<T, kTransposeVec4Tile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tile_panels");
}
template void launch_transpose_tile_panels<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_tile_panels<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_tile_panels<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
