// A shortcut that exercise 12's CPU check must fail (the grading test
// grading.12_cuda_sgemv_t_vec4.emulated.over_read_fails): a float4 for every thread whose first
// column is inside the row, so the thread at the row's end reads up to three padding floats; it
// drops them before they reach y, so y is right. Only the kernel: the check runs it on the emulation.
#include "sgemv_t_vec4.hpp"

namespace ex12 {
namespace {

__global__ void sgemv_t_vec4(const float* a, int lda, const float* x, float* y, int m, int n) {
  __shared__ float partial[kLanes][kBlockColumns];
  const int first = blockIdx.x * kBlockColumns + threadIdx.x * kColumnsPerThread;
  const int row_end = min((static_cast<int>(blockIdx.y) + 1) * kBlockRows, m);
  float sum[kColumnsPerThread] = {0, 0, 0, 0};
  if (first < n)
    for (int i = blockIdx.y * kBlockRows + threadIdx.y; i < row_end; i += kLanes) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(a + static_cast<long long>(i) * lda + first));
      const float in[kColumnsPerThread] = {v.x, v.y, v.z, v.w};
      for (int c = 0; c < kColumnsPerThread; ++c)
        if (first + c < n) sum[c] = fmaf(in[c], x[i], sum[c]);  // the padding's NaN never reaches y
    }
  for (int c = 0; c < kColumnsPerThread; ++c) partial[threadIdx.y][threadIdx.x * kColumnsPerThread + c] = sum[c];
  __syncthreads();
  if (threadIdx.y == 0)
    for (int c = 0; c < kColumnsPerThread && first + c < n; ++c) {
      float total = 0;
      for (int lane = 0; lane < kLanes; ++lane) total += partial[lane][threadIdx.x * kColumnsPerThread + c];
      atomicAdd(&y[first + c], total);
    }
}

}  // namespace
}  // namespace ex12
