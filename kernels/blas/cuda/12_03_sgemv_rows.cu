// Chapter 12: SGEMV, y <- A x, a warp per row. A (m x n, row-major) is read once, along its rows:
// the 32 lanes of a warp read 32 consecutive float4s of the row (512 bytes per load instruction),
// each multiplies them by the matching float4 of x (x is read by every row: it stays in L1/L2,
// the reuse of paper 001's "O(n)/O(1)"), and the warp's 32 partial sums meet in 5 shuffle steps.
// A row whose length is no multiple of 4, or an odd row start, takes the scalar loop instead.
#include "level12.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [sgemv_rows]
template <bool kVec4>
__global__ void __launch_bounds__(32 * kGemvRowsPerBlock) sgemv_rows(GemvArgs g) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * kGemvRowsPerBlock + threadIdx.x / 32;
  float sum = 0;
  if (row < g.m) {  // no early return: every lane of the block takes part in the shuffles below
    const float* a = g.a + static_cast<long long>(row) * g.n;
    if (kVec4) {  // n % 4 == 0: every row starts 16-byte aligned
      const float4* a4 = reinterpret_cast<const float4*>(a);
      const float4* x4 = reinterpret_cast<const float4*>(g.x);
      for (int j = lane; j < g.n / 4; j += 32) {
        const float4 v = a4[j], x = x4[j];
        sum = fmaf(v.x, x.x, sum);
        sum = fmaf(v.y, x.y, sum);
        sum = fmaf(v.z, x.z, sum);
        sum = fmaf(v.w, x.w, sum);
      }
    } else {
      for (int j = lane; j < g.n; j += 32) sum = fmaf(a[j], g.x[j], sum);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0 && row < g.m) g.y[row] = sum;
}
//! [sgemv_rows]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_sgemv_rows(const GemvArgs& g, cudaStream_t stream) {
  const unsigned blocks = level12_blocks(g.m, kGemvRowsPerBlock);
  if (g.n % 4 == 0)
    sgemv_rows<true><<<blocks, 32 * kGemvRowsPerBlock, 0, stream>>>(g);
  else
    sgemv_rows<false><<<blocks, 32 * kGemvRowsPerBlock, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("sgemv_rows");
}
#endif

}  // namespace gpgpu::blas::cuda
