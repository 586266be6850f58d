// Chapter 12, convolution step 7: the register tile fed and drained 16 bytes at a time. At k = 3 on
// the H200 step 4 (12_04_conv_register.cu) moved 75% of the bandwidth limit; Nsight Compute found its
// global loads 6.6 sectors of 32 bytes per warp request where 4 would do (its window starts r columns
// left of the block and its rows of 32 + k - 1 floats wrap across a warp), its issue slots 62% busy
// with about 48 instructions per output (a scalar fill loop with divisions, 9 LDS, 9 FFMA), and its
// warps waiting on those loads. Here:
//  - the window is read in aligned float4s (LDG.128): it starts at the float4 that holds the halo's
//    first column, so a warp's request covers 512 bytes in whole sectors; the load loop is unrolled
//    completely, all of a thread's loads in flight before the first store to shared memory;
//  - each thread makes kAlignedRows x 4 outputs, 4 along a row (as step 5), walking the input rows
//    as step 4 does, so each 16-byte shared load (LDS.128) serves up to 4 x kAlignedRows FMAs;
//  - the outputs leave as float4 stores (STG.128).
// The 16-byte accesses need rows that start at 16-byte boundaries (cols % 4 == 0 and aligned
// images); for any other image the same kernel loads and stores float by float (the flag `vec`,
// the same for every thread of the grid). Each output's sum runs over the filter rows p, then q,
// from 0, as in steps 4 and 5: the results are the same bits.
#include "conv_args.hpp"

#include <cstdint>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::conv::cuda {
namespace {

__constant__ float filter_aligned[kMaxK * kMaxK];

__device__ __forceinline__ bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

//! [conv_aligned]
// Row y of the image, columns x .. x + 3 (x a multiple of 4), with 0 outside the image. With `vec`
// the row starts at a 16-byte boundary and cols % 4 == 0, so the four are all inside or all outside.
__device__ __forceinline__ float4 load_four(const ConvArgs& c, int y, int x, bool vec) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (y < 0 || y >= c.rows) return v;
  const float* row = c.in + y * c.cols;
  if (vec) return x >= 0 && x < c.cols ? *reinterpret_cast<const float4*>(row + x) : v;
  if (x >= 0 && x < c.cols) v.x = row[x];
  if (x + 1 >= 0 && x + 1 < c.cols) v.y = row[x + 1];
  if (x + 2 >= 0 && x + 2 < c.cols) v.z = row[x + 2];
  if (x + 3 >= 0 && x + 3 < c.cols) v.w = row[x + 3];
  return v;
}

template <int K>
__global__ void __launch_bounds__(kBlockX * kBlockY) conv_aligned(ConvArgs c) {
  constexpr int kR = K / 2, kCols = kBlockX * 4, kRows = kBlockY * kAlignedRows;  // the block's outputs
  constexpr int kHalo4 = (kR + 3) / 4;                                           // float4s of halo per side
  constexpr int kW4 = kBlockX + 2 * kHalo4, kH = kRows + K - 1;  // its window: kW4 float4s x kH rows
  constexpr int kShift = 4 * kHalo4 - kR;           // where output column 0's first tap sits in the window
  constexpr int kIn4 = (kShift + K + 3 + 3) / 4;    // float4s of a window row that 4 neighbours read
  constexpr int kThreads = kBlockX * kBlockY, kLoads = (kW4 * kH + kThreads - 1) / kThreads;
  __shared__ float4 tile[kH * kW4];  // row-major, kW4 float4s a row
  const bool vec = c.cols % 4 == 0 && aligned16(c.in) && aligned16(c.out);
  const int col0 = blockIdx.x * kCols - 4 * kHalo4, row0 = blockIdx.y * kRows - kR;  // the window's corner
  const int first = threadIdx.y * kBlockX + threadIdx.x;
  float4 loaded[kLoads];  // every load issued before the first store: kLoads x 16 bytes in flight
#pragma unroll
  for (int l = 0; l < kLoads; ++l) {
    const int i = first + l * kThreads;
    if (i < kW4 * kH) loaded[l] = load_four(c, row0 + i / kW4, col0 + 4 * (i % kW4), vec);
  }
#pragma unroll
  for (int l = 0; l < kLoads; ++l)
    if (first + l * kThreads < kW4 * kH) tile[first + l * kThreads] = loaded[l];
  __syncthreads();  // reached by every thread: no return above

  float acc[kAlignedRows][4] = {};
  const int ty = threadIdx.y * kAlignedRows;
#pragma unroll(K <= 7 ? kAlignedRows + K - 1 : 1)  // unrolled up to k = 7: the filter values are FMA operands
  for (int in_row = 0; in_row < kAlignedRows + K - 1; ++in_row) {  // the input rows this thread's outputs cover
    float in[4 * kIn4];  // window row in_row from column 4 * threadIdx.x: the inputs of the 4 outputs
#pragma unroll
    for (int j = 0; j < kIn4; ++j) {
      const float4 f = tile[(ty + in_row) * kW4 + threadIdx.x + j];
      in[4 * j] = f.x, in[4 * j + 1] = f.y, in[4 * j + 2] = f.z, in[4 * j + 3] = f.w;
    }
#pragma unroll
    for (int t = 0; t < kAlignedRows; ++t) {  // output row t sees this row through filter row in_row - t
      const int p = in_row - t;
      if (p >= 0 && p < K)
#pragma unroll
        for (int s = 0; s < 4; ++s)
#pragma unroll
          for (int q = 0; q < K; ++q) acc[t][s] = fmaf(filter_aligned[p * K + q], in[kShift + s + q], acc[t][s]);
    }
  }
  const int col = blockIdx.x * kCols + threadIdx.x * 4, row = blockIdx.y * kRows + ty;
#pragma unroll
  for (int t = 0; t < kAlignedRows; ++t) {
    if (row + t >= c.rows || col >= c.cols) continue;
    float* out = c.out + (row + t) * c.cols + col;
    if (vec) {  // col < cols and cols % 4 == 0: all four inside
      *reinterpret_cast<float4*>(out) = make_float4(acc[t][0], acc[t][1], acc[t][2], acc[t][3]);
    } else {
#pragma unroll
      for (int s = 0; s < 4; ++s)
        if (col + s < c.cols) out[s] = acc[t][s];
    }
  }
}
//! [conv_aligned]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
namespace {
template <int K>
void launch_k(const ConvArgs& c, cudaStream_t stream) {
  conv_aligned<K><<<conv_grid(c, kAlignedRows, 4), dim3(kBlockX, kBlockY), 0, stream>>>(c);
  GPGPU_CUDA_CHECK_LAUNCH("conv_aligned");
}
}  // namespace

void launch_conv_aligned(const ConvArgs& c, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemcpyToSymbolAsync(filter_aligned, c.filter, sizeof(float) * c.k * c.k, 0, cudaMemcpyDeviceToDevice, stream));
  with_filter_side(c.k, "conv_aligned", [&](auto k) { launch_k<decltype(k)::value>(c, stream); });
}
#endif

}  // namespace gpgpu::conv::cuda
