// Exercise 09, worked answer: the tile of kernels/matrix/cuda/09_10_transpose_tile_multi.cu without
// its padding column. Element (r, c) of the tile is kept in column c XOR r of row r. For a fixed
// row, XOR with r permutes the 32 columns (it is its own inverse), so every element has a place of
// its own and a warp reading row r meets 32 different banks. For a fixed column c, the 32 elements
// (0, c) ... (31, c) land in columns c ^ 0 ... c ^ 31, again all different; as every row is 32
// words, the bank of (r, c) is its column, so the warp storing column c meets 32 banks too. Padding
// buys the same with 32 more floats per tile; the swizzle costs one XOR per access.
#include "transpose_swizzled.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex09 {

EX09_HOST_DEVICE int swizzled_column(int row, int col) { return col ^ row; }

namespace {

__global__ void transpose_swizzled(const float* in, float* out, int rows, int cols) {
  __shared__ SharedFloat tile[kTile][kTile];  // no padding: the swizzle does its job
  const int gx = blockIdx.x * kTile + threadIdx.x;  // column of in
  const int lx = threadIdx.x;
  for (int ly = threadIdx.y; ly < kTile; ly += kRowsPerPass) {
    const int gy = blockIdx.y * kTile + ly;  // row of in
    if (gx < cols && gy < rows) tile[lx][swizzled_column(lx, ly)] = in[gy * cols + gx];
  }
  __syncthreads();
  const int ox = blockIdx.y * kTile + lx;  // column of out = row of in
  for (int ly = threadIdx.y; ly < kTile; ly += kRowsPerPass) {
    const int oy = blockIdx.x * kTile + ly;  // row of out = column of in
    if (ox < rows && oy < cols) out[oy * rows + ox] = tile[ly][swizzled_column(ly, lx)];
  }
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_swizzled_tile_emulated.cpp runs the functions above on the CPU
void launch_transpose_swizzled(const float* in, float* out, int rows, int cols) {
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transpose_swizzled<<<grid, dim3(kTile, kRowsPerPass)>>>(in, out, rows, cols);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_swizzled (exercise 09)");
}

int transpose_swizzled_shared_bytes() {
  cudaFuncAttributes attributes{};
  GPGPU_CUDA_CHECK(cudaFuncGetAttributes(&attributes, transpose_swizzled));
  return static_cast<int>(attributes.sharedSizeBytes);
}
#endif

}  // namespace ex09
