// Chapter 12, convolution step 1: one thread per output pixel, everything from global memory. A
// warp takes 32 neighbouring pixels of a row, so each tap reads 128 contiguous bytes (coalesced);
// taps outside the image are skipped (zero padding). Each pixel is read by k² threads and each
// filter value by every thread: the caches serve that reuse, and the filter loads compete with the
// image's for the same load units.
#include "conv_args.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

//! [conv_naive]
__global__ void __launch_bounds__(kBlockX * kBlockY) conv_naive(ConvArgs c) {
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  const int row = blockIdx.y * kBlockY + threadIdx.y;
  if (row >= c.rows || col >= c.cols) return;
  const int r = c.k / 2;
  float sum = 0;
  for (int p = 0; p < c.k; ++p) {
    const int y = row + p - r;
    if (y < 0 || y >= c.rows) continue;  // zero padding above and below
    for (int q = 0; q < c.k; ++q) {
      const int x = col + q - r;
      if (x >= 0 && x < c.cols) sum = fmaf(c.filter[p * c.k + q], c.in[y * c.cols + x], sum);
    }
  }
  c.out[row * c.cols + col] = sum;
}
//! [conv_naive]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_conv_naive(const ConvArgs& c, cudaStream_t stream) {
  conv_naive<<<conv_grid(c), dim3(kBlockX, kBlockY), 0, stream>>>(c);
  GPGPU_CUDA_CHECK_LAUNCH("conv_naive");
}
#endif

}  // namespace gpgpu::conv::cuda
