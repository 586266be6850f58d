// Chapter 12, convolution step 3: a shared-memory tile. The block's 32 x 8 outputs need a
// (8 + k - 1) x (32 + k - 1) window of the image; the block loads it once, zeros where it falls
// outside the image (the padding, so the inner loop has no test), waits, and every thread then
// reads its k² inputs from shared memory. Global traffic drops to about one read per pixel; the
// filter stays in constant memory (12_02_conv_constant.cu). A filter side is a runtime value, so the
// tile is sized for the largest (kMaxK) and indexed with the actual width.
#include "conv_args.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

__constant__ float filter_tiled[kMaxK * kMaxK];

//! [conv_tiled]
constexpr int kTileW = kBlockX + kMaxK - 1, kTileH = kBlockY + kMaxK - 1;

__global__ void __launch_bounds__(kBlockX * kBlockY) conv_tiled(ConvArgs c) {
  __shared__ float tile[kTileH * kTileW];
  const int r = c.k / 2, width = kBlockX + c.k - 1, height = kBlockY + c.k - 1;
  const int col0 = blockIdx.x * kBlockX - r, row0 = blockIdx.y * kBlockY - r;  // the window's corner
  for (int i = threadIdx.y * kBlockX + threadIdx.x; i < width * height; i += kBlockX * kBlockY) {
    const int y = row0 + i / width, x = col0 + i % width;
    tile[(i / width) * kTileW + i % width] = (y >= 0 && y < c.rows && x >= 0 && x < c.cols) ? c.in[y * c.cols + x] : 0.0f;
  }
  __syncthreads();  // reached by every thread: the early exit comes after it
  const int col = blockIdx.x * kBlockX + threadIdx.x, row = blockIdx.y * kBlockY + threadIdx.y;
  if (row >= c.rows || col >= c.cols) return;
  float sum = 0;
  for (int p = 0; p < c.k; ++p)
    for (int q = 0; q < c.k; ++q) sum = fmaf(filter_tiled[p * c.k + q], tile[(threadIdx.y + p) * kTileW + threadIdx.x + q], sum);
  c.out[row * c.cols + col] = sum;
}
//! [conv_tiled]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_conv_tiled(const ConvArgs& c, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_tiled, c.filter, sizeof(float) * c.k * c.k, 0, cudaMemcpyDeviceToDevice, stream));
  conv_tiled<<<conv_grid(c), dim3(kBlockX, kBlockY), 0, stream>>>(c);
  GPGPU_CUDA_CHECK_LAUNCH("conv_tiled");
}
#endif

}  // namespace gpgpu::conv::cuda
