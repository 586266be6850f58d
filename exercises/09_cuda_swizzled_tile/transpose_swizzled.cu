// Exercise 09 skeleton: write swizzled_column and the kernel body marked TODO(exercise). The checks
// (check_swizzled_tile.cpp on the GPU, check_swizzled_tile_emulated.cpp on the CPU) fail until both
// are right.
#include "transpose_swizzled.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex09 {

EX09_HOST_DEVICE int swizzled_column(int row, int col) {
  (void)row;
  return col;  // TODO(exercise): every element a place of its own, and no bank conflicts (see the header)
}

namespace {

__global__ void transpose_swizzled(const float* in, float* out, int rows, int cols) {
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
  // TODO(exercise): block (bx, by) moves tile (bx, by) of `in` (rows by*kTile.., columns bx*kTile..)
  // to tile (by, bx) of `out`, as kernels/matrix/cuda/09_10_transpose_tile_multi.cu does, through
  // __shared__ SharedFloat tile[kTile][kTile] (no padding: the swizzle does its job), keeping
  // element (r, c) of the tile in tile[r][swizzled_column(r, c)].
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
