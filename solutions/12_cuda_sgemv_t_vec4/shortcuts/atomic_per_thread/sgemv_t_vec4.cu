// A shortcut that exercise 12's CPU check must fail (the grading test
// grading.12_cuda_sgemv_t_vec4.emulated.shortcut_atomic_per_thread_fails): the right y and the right
// loads, but no shared memory: every thread adds its own partial sums to y, kLanes atomicAdds per
// column and block where the partial sums should meet first and one thread add their total. Only the
// kernel: the check runs it on the emulation.
#include "sgemv_t_vec4.hpp"

namespace ex12 {
namespace {

__global__ void sgemv_t_vec4(const float* a, int lda, const float* x, float* y, int m, int n) {
  const int first = blockIdx.x * kBlockColumns + threadIdx.x * kColumnsPerThread;
  const int row_end = min((static_cast<int>(blockIdx.y) + 1) * kBlockRows, m);
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
  for (int c = 0; c < kColumnsPerThread && first + c < n; ++c) atomicAdd(&y[first + c], sum[c]);
}

}  // namespace
}  // namespace ex12
