// Chapter 12, convolution step 5: the register tile that fits. Step 4 (12_04_conv_register.cu) unrolls
// every loop, so that each filter value can be an operand of its FMA; at k = 17 that is 2312 FMAs in
// one straight line, and ptxas answers with 255 registers, spills to local memory and a constant load
// (LDC) for most filter values: the kernel stayed far below the FMA peak. Here the loop over the
// filter's rows stays a loop (a few hundred instructions of code), filter row p sits in registers
// for the whole block of outputs, and a thread computes kFloat4Rows x 4 outputs, 4 side by side
// along a row: the k + 3 inputs they need from one tile row come in 16-byte loads (LDS.128), a
// warp's 32 of them consecutive, so no two lanes of a quarter-warp touch the same bank. Each input
// then serves up to four FMAs in registers, each filter value kFloat4Rows x 4.
#include "conv_args.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

__constant__ float filter_float4[kMaxK * kMaxK];

template <int N>
constexpr int kRound4 = (N + 3) / 4 * 4;  // a count of floats, rounded up to whole float4s

//! [conv_float4]
template <int K>
__global__ void __launch_bounds__(kBlockX * kBlockY) conv_float4(ConvArgs c) {
  constexpr int kR = K / 2, kCols = kBlockX * 4, kRows = kBlockY * kFloat4Rows;  // the block's outputs
  constexpr int kW = kCols + K - 1, kH = kRows + K - 1;  // its window of the image
  constexpr int kPitch = kRound4<kW>, kTaps = kRound4<K>, kIn = kRound4<K + 3>;
  __shared__ __align__(16) float tile[kH * kPitch];
  __shared__ __align__(16) float filter[K * kTaps];
  const int col0 = blockIdx.x * kCols - kR, row0 = blockIdx.y * kRows - kR;
  const int first = threadIdx.y * kBlockX + threadIdx.x;
  for (int i = first; i < kH * kPitch; i += kBlockX * kBlockY) {  // zeros outside the image and in the pitch
    const int y = row0 + i / kPitch, x = col0 + i % kPitch;
    tile[i] = (i % kPitch < kW && y >= 0 && y < c.rows && x >= 0 && x < c.cols) ? c.in[y * c.cols + x] : 0.0f;
  }
  for (int i = first; i < K * kTaps; i += kBlockX * kBlockY)  // rows padded with zeros to a float4 multiple
    filter[i] = i % kTaps < K ? filter_float4[(i / kTaps) * K + i % kTaps] : 0.0f;
  __syncthreads();  // reached by every thread: no return above

  float acc[kFloat4Rows][4] = {};
#pragma unroll 1
  for (int p = 0; p < K; ++p) {  // a loop, not unrolled: this is what keeps the code and registers small
    float w[kTaps];               // filter row p, for all kFloat4Rows x 4 outputs
#pragma unroll
    for (int q = 0; q < kTaps; q += 4) *reinterpret_cast<float4*>(&w[q]) = *reinterpret_cast<const float4*>(&filter[p * kTaps + q]);
#pragma unroll
    for (int t = 0; t < kFloat4Rows; ++t) {  // output row t reads tile row t + p
      const float* row = tile + (threadIdx.y * kFloat4Rows + t + p) * kPitch + threadIdx.x * 4;
      float in[kIn];  // the K + 3 inputs of 4 neighbouring outputs (the rest of the last float4 unused)
#pragma unroll
      for (int j = 0; j < kIn; j += 4) *reinterpret_cast<float4*>(&in[j]) = *reinterpret_cast<const float4*>(row + j);
#pragma unroll
      for (int s = 0; s < 4; ++s)
#pragma unroll
        for (int q = 0; q < K; ++q) acc[t][s] = fmaf(w[q], in[s + q], acc[t][s]);
    }
  }
  const int col = blockIdx.x * kCols + threadIdx.x * 4, row = blockIdx.y * kRows + threadIdx.y * kFloat4Rows;
#pragma unroll
  for (int t = 0; t < kFloat4Rows; ++t)
#pragma unroll
    for (int s = 0; s < 4; ++s)
      if (row + t < c.rows && col + s < c.cols) c.out[(row + t) * c.cols + col + s] = acc[t][s];
}
//! [conv_float4]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
namespace {
template <int K>
void launch_k(const ConvArgs& c, cudaStream_t stream) {
  conv_float4<K><<<conv_grid(c, kFloat4Rows, 4), dim3(kBlockX, kBlockY), 0, stream>>>(c);
  GPGPU_CUDA_CHECK_LAUNCH("conv_float4");
}
}  // namespace

void launch_conv_float4(const ConvArgs& c, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_float4, c.filter, sizeof(float) * c.k * c.k, 0, cudaMemcpyDeviceToDevice, stream));
  with_filter_side(c.k, "conv_float4", [&](auto k) { launch_k<decltype(k)::value>(c, stream); });
}
#endif

}  // namespace gpgpu::conv::cuda
