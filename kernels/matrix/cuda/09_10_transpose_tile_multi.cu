// Chapter 09, past the paper: 09_09_transpose_tile_padded.cu with blocks of 32 x 8 threads for the
// same 32 x 32 tile, so each thread loads and stores four elements (rows ly, ly + 8, ly + 16,
// ly + 24). A quarter of the threads, the same bytes: each thread has four independent loads in
// flight before the barrier, the barrier waits for 256 threads instead of 1024, and an SM holds
// eight such blocks at once. (NVIDIA's transpose sample, and most fast transposes since, take this
// shape.)
#include "launchers.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_tile_multi]
template <typename T, int Tile, int RowsPerPass>
__global__ void transpose_tile_multi(TransposeArgs<T> a) {
  __shared__ T tile[Tile][Tile + 1];
  const int gx = blockIdx.x * Tile + threadIdx.x;  // column of in
  const int lx = threadIdx.x;
  for (int ly = threadIdx.y; ly < Tile; ly += RowsPerPass) {
    const int gy = blockIdx.y * Tile + ly;  // row of in
    if (gx < a.cols && gy < a.rows) tile[lx][ly] = a.in[gy * a.cols + gx];
  }
  __syncthreads();
  const int ox = blockIdx.y * Tile + lx;  // column of out = row of in
  for (int ly = threadIdx.y; ly < Tile; ly += RowsPerPass) {
    const int oy = blockIdx.x * Tile + ly;  // row of out = column of in
    if (ox < a.rows && oy < a.cols) a.out[oy * a.rows + ox] = tile[ly][lx];
  }
}
//! [transpose_tile_multi]

// The launch: tiles of 32 x 32, a block of 32 x 8 threads per tile, each thread a row every 8.
constexpr int kTransposeMultiTile = 32, kTransposeMultiRowsPerPass = 8;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape transpose_tile_multi_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kTransposeMultiTile), blocks_for(rows, kTransposeMultiTile)),
          dim3(kTransposeMultiTile, kTransposeMultiRowsPerPass)};
}

template <typename T>
void launch_transpose_tile_multi(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_tile_multi_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("transpose_tile_multi: more block rows than gridDim.y allows");
  transpose_tile_multi<T, kTransposeMultiTile, kTransposeMultiRowsPerPass><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tile_multi");
}
template void launch_transpose_tile_multi<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_tile_multi<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_tile_multi<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
