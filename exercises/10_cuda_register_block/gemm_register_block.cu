// Exercise 10 skeleton: write the kernel body marked TODO(exercise). The checks
// (check_register_block.cpp on the GPU, check_register_block_emulated.cpp on the CPU emulation)
// fail until it is right.
#include "gemm_register_block.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex10 {
namespace {

__global__ void gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k) {
  (void)a;
  (void)b;
  (void)c;
  (void)m;
  (void)n;
  (void)k;
  // TODO(exercise): the block's kTile x kTile tile of C, each of the kThreads threads computing a
  // kThreadTile x kThreadTile block of it in registers, through kTile x kStep and kStep x kTile tiles
  // of A and B in shared memory (kernels/blas/cuda/10_blocktile_2d.cu shows the idea with other
  // sizes). Sizes that are no multiple of any tile must work.
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_register_block_emulated.cpp runs the kernel above on the CPU
void launch_gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  gemm_register_block<<<grid, kThreads>>>(a, b, c, m, n, k);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_register_block (exercise 10)");
}
#endif

}  // namespace ex10
