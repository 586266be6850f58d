// Chapter 09: 09_08_transpose_tile.cu with one padding element per tile row: tile[Tile][Tile + 1].
// The 32 elements tile[lx][ly] of a warp are now 33 words apart, which falls into 32 different
// banks, so the column-wise store into shared memory runs in one pass instead of 32. The row-wise
// read was conflict-free before and stays so. (For double, 8-byte words: a warp is served as two
// half-warps of 16, and 33 doubles = 66 words apart spreads 16 accesses over 32 banks.)
#include "launchers.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_tile_padded]
template <typename T, int Tile>
__global__ void transpose_tile_padded(TransposeArgs<T> a) {
  __shared__ T tile[Tile][Tile + 1];
  const int gx = blockIdx.x * blockDim.x + threadIdx.x;  // column of in
  const int gy = blockIdx.y * blockDim.y + threadIdx.y;  // row of in
  const int lx = threadIdx.x, ly = threadIdx.y;
  if (gx < a.cols && gy < a.rows) tile[lx][ly] = a.in[gy * a.cols + gx];
  __syncthreads();
  const int ox = blockIdx.y * blockDim.y + lx;  // block indices swapped: column of out = row of in
  const int oy = blockIdx.x * blockDim.x + ly;  // row of out = column of in
  if (ox < a.rows && oy < a.cols) a.out[oy * a.rows + ox] = tile[ly][lx];
}
//! [transpose_tile_padded]

// The launch: transpose_tile's, tiles of 32 x 32, a block of 32 x 32 threads per tile.
constexpr int kTransposePaddedTile = 32;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape transpose_tile_padded_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kTransposePaddedTile), blocks_for(rows, kTransposePaddedTile)),
          dim3(kTransposePaddedTile, kTransposePaddedTile)};
}

template <typename T>
void launch_transpose_tile_padded(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_tile_padded_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("transpose_tile_padded: more block rows than gridDim.y allows");
  transpose_tile_padded<T, kTransposePaddedTile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tile_padded");
}
template void launch_transpose_tile_padded<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_tile_padded<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_tile_padded<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
// Chapter 10b transposes B once for its TMA step: floats as they are, bfloat16 as their 16-bit patterns.
template void launch_transpose_tile_padded<std::uint16_t>(const TransposeArgs<std::uint16_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
