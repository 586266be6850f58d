// Exercise 12 skeleton: write the kernel body marked TODO(exercise). The checks
// (check_sgemv_t_vec4.cpp on the GPU, check_sgemv_t_vec4_emulated.cpp on the CPU emulation) fail
// until it is right.
#include "sgemv_t_vec4.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex12 {
namespace {

__global__ void sgemv_t_vec4(const float* a, int lda, const float* x, float* y, int m, int n) {
  (void)a;
  (void)lda;
  (void)x;
  (void)y;
  (void)m;
  (void)n;
  // TODO(exercise): y = Aᵀ x as sgemv_t_vec4.hpp describes. Read A only through __ldg: four columns
  // as one __ldg(const float4*) where they all lie inside the row, one __ldg(const float*) per
  // column otherwise, never a padding column. The block's kLanes partial sums of a column meet in
  // shared memory, and one atomicAdd per column and block adds them to y.
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
