// Exercise 12 skeleton: write the kernel body marked TODO(exercise). The checks
// (check_sgemv_t_vec4.cpp on the GPU, check_sgemv_t_vec4_emulated.cpp on the CPU emulation) fail
// until it is right.
#include "sgemv_t_vec4.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex12 {
namespace {

__global__ void sgemv_t_vec4(const float* a, const float* x, float* y, int m, int n) {
  (void)a;
  (void)x;
  (void)y;
  (void)m;
  (void)n;
  // TODO(exercise): each thread sums its kColumnsPerThread columns over its rows of the block's strip
  // (reading them as one float4 when every row starts 16-byte aligned, i.e. n % 4 == 0, one by one
  // otherwise, and never past column n - 1); the block's kLanes partial sums of a column meet in
  // shared memory, and one atomicAdd per column and block adds them to y.
  // kernels/blas/cuda/12_sgemv_t_columns.cu does this with one column per thread.
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
