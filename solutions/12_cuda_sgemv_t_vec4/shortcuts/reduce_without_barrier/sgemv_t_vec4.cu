// Exercise 12, a shortcut the check must reject: the worked answer without its __syncthreads(), the
// block's partial sums added up by the last lane (threadIdx.y == kLanes - 1) instead of lane 0. A
// race: nothing makes the other lanes' stores to `partial` visible before the last lane reads them.
// It passes where the last lane happens to run after the others (an emulation that runs the threads
// in order), not where it runs first.
#include "sgemv_t_vec4.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex12 {
namespace {

__global__ void sgemv_t_vec4(const float* a, int lda, const float* x, float* y, int m, int n) {
  __shared__ float partial[kLanes][kBlockColumns];
  const int first = blockIdx.x * kBlockColumns + threadIdx.x * kColumnsPerThread;  // the thread's first column
  const int row_end = min((static_cast<int>(blockIdx.y) + 1) * kBlockRows, m);
  // Rows start 16-byte aligned (lda % 4 == 0) and first % 4 == 0, so the float4 at `first` is
  // aligned; it is inside the row only if its last column is. The one thread whose four columns
  // straddle column n - 1 reads the ones inside one by one, never the padding.
  const bool vec4 = first + 3 < n;
  float sum[kColumnsPerThread] = {0, 0, 0, 0};
  for (int i = blockIdx.y * kBlockRows + threadIdx.y; i < row_end; i += kLanes) {
    const float xi = __ldg(x + i);
    const float* row = a + static_cast<long long>(i) * lda;
    if (vec4) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(row + first));
      sum[0] = fmaf(v.x, xi, sum[0]);
      sum[1] = fmaf(v.y, xi, sum[1]);
      sum[2] = fmaf(v.z, xi, sum[2]);
      sum[3] = fmaf(v.w, xi, sum[3]);
    } else {
      for (int c = 0; c < kColumnsPerThread && first + c < n; ++c) sum[c] = fmaf(__ldg(row + first + c), xi, sum[c]);
    }
  }
  for (int c = 0; c < kColumnsPerThread; ++c) partial[threadIdx.y][threadIdx.x * kColumnsPerThread + c] = sum[c];
  if (threadIdx.y == kLanes - 1)  // no barrier: the other lanes' partial sums may not be there yet
    for (int c = 0; c < kColumnsPerThread && first + c < n; ++c) {
      float total = 0;
      for (int lane = 0; lane < kLanes; ++lane) total += partial[lane][threadIdx.x * kColumnsPerThread + c];
      atomicAdd(&y[first + c], total);
    }
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_sgemv_t_vec4_emulated.cpp runs the kernel above on the CPU
void launch_sgemv_t_vec4(const float* a, int lda, const float* x, float* y, int m, int n) {
  GPGPU_CUDA_CHECK(cudaMemsetAsync(y, 0, sizeof(float) * static_cast<size_t>(n), nullptr));
  const dim3 grid((n + kBlockColumns - 1) / kBlockColumns, (m + kBlockRows - 1) / kBlockRows);
  sgemv_t_vec4<<<grid, dim3(kThreadsX, kLanes)>>>(a, lda, x, y, m, n);
  GPGPU_CUDA_CHECK_LAUNCH("sgemv_t_vec4 (exercise 12)");
}
#endif

}  // namespace ex12
