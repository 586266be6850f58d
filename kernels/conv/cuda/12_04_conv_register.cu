// Chapter 12, convolution step 4: a register tile. In step 3 (12_03_conv_tiled.cu) every multiply-add
// needs a shared-memory load: at k = 17 the kernel is bound by the load units, which issue a quarter
// as many operations per cycle as the FMA units. Here each thread computes kRegRows outputs down a
// column: it loads one row of k inputs from the tile into registers and applies it to every output
// whose filter covers that row, so each shared load serves up to kRegRows multiply-adds. The filter
// side is a template parameter (the launcher dispatches the odd k up to 31): the loops unroll
// completely and every filter value sits at a constant-bank address known at compile time, loaded
// once into a uniform register that its FMAs read. At k = 17 the straight line no longer fits the
// registers: ptxas spills and reloads (chapters/12_gpu_friendly/CONVOLUTION.md, step 4).
#include "conv_args.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

__constant__ float filter_register[kMaxK * kMaxK];

//! [conv_register]
template <int K>
__global__ void __launch_bounds__(kBlockX * kBlockY) conv_register(ConvArgs c) {
  constexpr int kR = K / 2, kW = kBlockX + K - 1, kH = kBlockY * kRegRows + K - 1;
  __shared__ float tile[kH][kW];
  const int col0 = blockIdx.x * kBlockX - kR, row0 = blockIdx.y * (kBlockY * kRegRows) - kR;
  for (int i = threadIdx.y * kBlockX + threadIdx.x; i < kW * kH; i += kBlockX * kBlockY) {
    const int y = row0 + i / kW, x = col0 + i % kW;
    tile[i / kW][i % kW] = (y >= 0 && y < c.rows && x >= 0 && x < c.cols) ? c.in[y * c.cols + x] : 0.0f;
  }
  __syncthreads();  // reached by every thread: no return above
  float acc[kRegRows] = {};
#pragma unroll
  for (int in_row = 0; in_row < kRegRows + K - 1; ++in_row) {  // the input rows this thread's outputs cover
    float v[K];
#pragma unroll
    for (int q = 0; q < K; ++q) v[q] = tile[threadIdx.y * kRegRows + in_row][threadIdx.x + q];
#pragma unroll
    for (int t = 0; t < kRegRows; ++t) {  // output t sees this row through filter row in_row - t
      const int p = in_row - t;
      if (p >= 0 && p < K) {
#pragma unroll
        for (int q = 0; q < K; ++q) acc[t] = fmaf(filter_register[p * K + q], v[q], acc[t]);
      }
    }
  }
  const int col = blockIdx.x * kBlockX + threadIdx.x;
  const int row = blockIdx.y * (kBlockY * kRegRows) + threadIdx.y * kRegRows;
  if (col < c.cols)
#pragma unroll
    for (int t = 0; t < kRegRows; ++t)
      if (row + t < c.rows) c.out[(row + t) * c.cols + col] = acc[t];
}
//! [conv_register]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
namespace {
template <int K>
void launch_k(const ConvArgs& c, cudaStream_t stream) {
  conv_register<K><<<conv_grid(c, kRegRows), dim3(kBlockX, kBlockY), 0, stream>>>(c);
  GPGPU_CUDA_CHECK_LAUNCH("conv_register");
}
}  // namespace

void launch_conv_register(const ConvArgs& c, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_register, c.filter, sizeof(float) * c.k * c.k, 0, cudaMemcpyDeviceToDevice, stream));
  with_filter_side(c.k, "conv_register", [&](auto k) { launch_k<decltype(k)::value>(c, stream); });
}
#endif

}  // namespace gpgpu::conv::cuda
