// Exercise 10, worked answer: 10_blocktile_2d.cu's scheme with a 64 x 64 tile, K in steps of 16 and
// 4 x 4 per thread. Each thread loads kTile * kStep / kThreads = 4 elements of each tile (zeros
// past the matrix), and per step p reads 4 A and 4 B values into registers for 16 multiply-adds.
#include "gemm_register_block.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex10 {
namespace {

__global__ void gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[kTile][kStep];
  __shared__ float bs[kStep][kTile];
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile, t = threadIdx.x;
  const int tr = t / (kTile / kThreadTile) * kThreadTile, tc = t % (kTile / kThreadTile) * kThreadTile;
  float acc[kThreadTile][kThreadTile] = {};
  float a_reg[kThreadTile], b_reg[kThreadTile];
  for (int p0 = 0; p0 < k; p0 += kStep) {
    for (int e = t; e < kTile * kStep; e += kThreads) {
      const int r = row0 + e / kStep, q = p0 + e % kStep;
      as[e / kStep][e % kStep] = r < m && q < k ? a[r * k + q] : 0.0f;
    }
    for (int e = t; e < kStep * kTile; e += kThreads) {
      const int q = p0 + e / kTile, col = col0 + e % kTile;
      bs[e / kTile][e % kTile] = q < k && col < n ? b[q * n + col] : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < kStep; ++p) {
      for (int i = 0; i < kThreadTile; ++i) a_reg[i] = as[tr + i][p];
      for (int j = 0; j < kThreadTile; ++j) b_reg[j] = bs[p][tc + j];
      for (int i = 0; i < kThreadTile; ++i)
        for (int j = 0; j < kThreadTile; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < kThreadTile; ++i)
    for (int j = 0; j < kThreadTile; ++j) {
      const int row = row0 + tr + i, col = col0 + tc + j;
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
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
