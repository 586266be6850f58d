// Chapter 12, convolution step 2: the filter in constant memory. Every thread of a warp reads the
// same filter value at the same time, which is what the constant cache broadcasts in one
// transaction; the load units are left to the image. The rest is step 1 (12_01_conv_naive.cu).
#include "conv_args.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

//! [conv_constant]
__constant__ float filter_constant[kMaxK * kMaxK];

__global__ void __launch_bounds__(kBlockX * kBlockY) conv_constant(ConvArgs c) {
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  if (row >= c.rows || col >= c.cols) return;
  const int r = c.k / 2;
  float sum = 0;
  for (int p = 0; p < c.k; ++p) {
    const int y = row + p - r;
    if (y < 0 || y >= c.rows) continue;
    for (int q = 0; q < c.k; ++q) {
      const int x = col + q - r;
      if (x >= 0 && x < c.cols) sum = fmaf(filter_constant[p * c.k + q], c.in[y * c.cols + x], sum);
    }
  }
  c.out[row * c.cols + col] = sum;
}
//! [conv_constant]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_conv_constant(const ConvArgs& c, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_constant, c.filter, sizeof(float) * c.k * c.k, 0, cudaMemcpyDeviceToDevice, stream));
  conv_constant<<<conv_grid(c), dim3(kBlockX, kBlockY), 0, stream>>>(c);
  GPGPU_CUDA_CHECK_LAUNCH("conv_constant");
}
#endif

}  // namespace gpgpu::conv::cuda
