// Exercise 12, a worked answer: four columns per thread, one float4 per row where n % 4 == 0.
#include "sgemv_t_vec4.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex12 {
namespace {

__global__ void sgemv_t_vec4(const float* a, const float* x, float* y, int m, int n) {
  __shared__ float partial[kLanes][kBlockColumns];
  const int first = blockIdx.x * kBlockColumns + threadIdx.x * kColumnsPerThread;  // the thread's first column
  const int row_end = min((static_cast<int>(blockIdx.y) + 1) * kBlockRows, m);
  const bool vec4 = n % 4 == 0 && first < n;  // then first + 3 < n too, and every row is 16-byte aligned
  float sum[kColumnsPerThread] = {0, 0, 0, 0};
  for (int i = blockIdx.y * kBlockRows + threadIdx.y; i < row_end; i += kLanes) {
    const float xi = x[i];
    const float* row = a + static_cast<long long>(i) * n;
    if (vec4) {
      const float4 v = *reinterpret_cast<const float4*>(row + first);
      sum[0] = fmaf(v.x, xi, sum[0]);
      sum[1] = fmaf(v.y, xi, sum[1]);
      sum[2] = fmaf(v.z, xi, sum[2]);
      sum[3] = fmaf(v.w, xi, sum[3]);
    } else {
      for (int c = 0; c < kColumnsPerThread; ++c)
        if (first + c < n) sum[c] = fmaf(row[first + c], xi, sum[c]);
    }
  }
  for (int c = 0; c < kColumnsPerThread; ++c) partial[threadIdx.y][threadIdx.x * kColumnsPerThread + c] = sum[c];
  __syncthreads();  // every thread reaches it: no return above
  if (threadIdx.y == 0)
    for (int c = 0; c < kColumnsPerThread; ++c) {
      if (first + c >= n) break;
      float total = 0;
      for (int lane = 0; lane < kLanes; ++lane) total += partial[lane][threadIdx.x * kColumnsPerThread + c];
      atomicAdd(&y[first + c], total);
    }
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_sgemv_t_vec4_emulated.cpp runs the kernel above on the CPU
void launch_sgemv_t_vec4(const float* a, const float* x, float* y, int m, int n) {
  GPGPU_CUDA_CHECK(cudaMemsetAsync(y, 0, sizeof(float) * static_cast<size_t>(n), nullptr));
  const dim3 grid((n + kBlockColumns - 1) / kBlockColumns, (m + kBlockRows - 1) / kBlockRows);
  sgemv_t_vec4<<<grid, dim3(kThreadsX, kLanes)>>>(a, x, y, m, n);
  GPGPU_CUDA_CHECK_LAUNCH("sgemv_t_vec4 (exercise 12)");
}
#endif

}  // namespace ex12
