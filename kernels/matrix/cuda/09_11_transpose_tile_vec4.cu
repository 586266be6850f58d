// Chapter 09, past the paper: 09_10_transpose_tile_multi.cu with 16 bytes per global access (float4,
// double2 or int4, as 09_05_add_vec4.cu) and a 64 x 64 tile.
//
// What limited the previous step (Nsight Compute at 8192² float on the H200): DRAM at 71% of its peak
// while the schedulers issued an instruction in 54% of their cycles, 155 instructions per warp for
// the 128 elements it moves (each thread's four scalar loads and stores, plus the index arithmetic
// and the trip-count tests of a loop whose start, threadIdx.y, the compiler cannot know), and the largest stall long_scoreboard (14.3 cycles per
// issue: warps waiting for their loads). A block held 32 x 32 x 4 B = 4 KiB in flight between its
// barriers, 16 B per thread.
//
// The design, per block of 256 threads (8 warps) and one 64 x 64 tile:
// - each thread loads four 16-byte vectors (rows y, y + 16, y + 32, y + 48 of the tile for floats;
//   eight of 8 rows apart for doubles): 64 B per thread, 16 KiB per block in flight before the
//   barrier, four times the previous step's, with one load instruction per vector;
// - after the barrier each thread gathers four (two) elements down a column of the tile into a
//   vector and stores it: a row of the output gets 64 contiguous elements (256 B for floats) per
//   tile instead of 32;
// - the tile stays padded to Tile + 1 columns, and each warp covers 8 vectors across and 4 rows
//   down (32 floats x 4 rows) rather than one long row: then the 32 lanes' k-th element (float:
//   bank 4 * vector + row + k mod 32) and the 32 lanes' column reads (bank 4 * vector + k + row mod 32)
//   fall into 32 different banks; a warp of 16 vectors along one row would put two lanes in each
//   bank (vectors 8 apart are 32 words apart). For doubles the same shape keeps each half-warp in 16
//   different bank pairs;
// - shared memory: 64 x 65 x 4 B = 16.3 KiB per block for floats and ints (32.5 KiB for doubles);
//   eight blocks (2048 threads, the SM's most) take 130 KiB of the SM's 228 KiB, so occupancy stays
//   at 100% if a thread needs at most 32 registers (doubles: six blocks, 75%). The launch states no
//   shared-memory carveout: the driver then sizes shared memory for the blocks that fit, as it does
//   for the OpenCL port, which has no way to ask. Asking for the largest (228 KiB) would leave
//   256 - 228 = 28 KiB of the SM's unified L1 data memory, which also stages the global loads in
//   flight (NVIDIA's tuning guides: it gathers a warp's data before delivering it), while eight
//   blocks issue 8 x 16 KiB of loads;
// - a tile that the matrix cuts, or any tile when a row of the input or of the output is not a whole
//   number of 16-byte vectors (rows or cols not a multiple of 4 floats, 2 doubles), takes the previous
//   step's path instead: 64 x 4 threads, an element each per pass.
#include "launchers.hpp"
#include "tile_vec4.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_tile_vec4]
template <typename T, int Tile, typename Shared = T>
__global__ void transpose_tile_vec4(TransposeArgs<T> a) {
  __shared__ Shared tile[Tile][Tile + 1];
  move_tile_vec4<T, Tile>(a, tile, blockIdx.y * Tile, blockIdx.x * Tile);  // tiles in the order of the blocks
}
//! [transpose_tile_vec4]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape transpose_tile_vec4_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kTransposeVec4Tile), blocks_for(rows, kTransposeVec4Tile)),
          dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps)};
}

template <typename T>
void launch_transpose_tile_vec4(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_tile_vec4_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("transpose_tile_vec4: more block rows than gridDim.y allows");
  transpose_tile_vec4<T, kTransposeVec4Tile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tile_vec4");
}
template void launch_transpose_tile_vec4<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_tile_vec4<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_tile_vec4<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
