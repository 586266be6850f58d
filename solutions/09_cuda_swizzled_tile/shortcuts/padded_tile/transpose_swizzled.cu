// Exercise 09, a shortcut the CPU check must catch (its grading test proves it fails): the index
// function is the worked answer's, but the kernel ignores it and pads the tile instead, the chapter's
// 09_09_transpose_tile_padded.cu. Exact and conflict-free, but 32 floats more per tile than the
// exercise allows: the check sees the kernel's shared accesses span more than 32 x 32 floats.
#include "transpose_swizzled.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex09 {

EX09_HOST_DEVICE int swizzled_column(int row, int col) { return col ^ row; }

namespace {

__global__ void transpose_swizzled(const float* in, float* out, int rows, int cols) {
  __shared__ SharedFloat tile[kTile][kTile + 1];  // padded: the technique this exercise replaces
  const int gx = blockIdx.x * kTile + threadIdx.x;  // column of in
  const int lx = threadIdx.x;
  for (int ly = threadIdx.y; ly < kTile; ly += kRowsPerPass) {
    const int gy = blockIdx.y * kTile + ly;  // row of in
    if (gx < cols && gy < rows) tile[lx][ly] = in[gy * cols + gx];
  }
  __syncthreads();
  const int ox = blockIdx.y * kTile + lx;  // column of out = row of in
  for (int ly = threadIdx.y; ly < kTile; ly += kRowsPerPass) {
    const int oy = blockIdx.x * kTile + ly;  // row of out = column of in
    if (ox < rows && oy < cols) out[oy * rows + ox] = tile[ly][lx];
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
