// Exercise 10, a shortcut the grading test must catch: the worked answer with A's load guarded by
// the row only, not by the k edge. Where k is no multiple of the step, the last row's loads read up
// to 7 floats past A's end; B's zeros past k multiply them, so without guards the product is right.
// Built only for the grading test shortcut_unguarded_a_k_edge_fails, which expects the CPU check
// (check_register_block_emulated.cpp, A and B between NaN guards) to reject it.
#include "gemm_register_block.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex10 {
namespace {

constexpr TileShape kShape{128, 128, 8, 8, 8};

template <typename T>
__global__ void gemm_register_block(const T* a, const T* b, T* c, int m, int n, int k) {
  constexpr int BM = kShape.block_m, BN = kShape.block_n, BK = kShape.step_k, TM = kShape.thread_m, TN = kShape.thread_n;
  static_assert(BM * BN == kThreads * TM * TN, "the threads' blocks cover the block's tile");
  __shared__ T as[BM][BK];
  __shared__ T bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN, t = threadIdx.x;
  const int tr = t / (BN / TN) * TM, tc = t % (BN / TN) * TN;  // this thread's block of the tile
  T acc[TM][TN] = {};
  T a_reg[TM], b_reg[TN];
  for (int p0 = 0; p0 < k; p0 += BK) {
    for (int e = t; e < BM * BK; e += kThreads) {
      const int r = row0 + e / BK, q = p0 + e % BK;
      as[e / BK][e % BK] = r < m ? a[r * k + q] : T(0);  // no k edge: the last row reads past A
    }
    for (int e = t; e < BK * BN; e += kThreads) {
      const int q = p0 + e / BN, col = col0 + e % BN;
      bs[e / BN][e % BN] = q < k && col < n ? b[q * n + col] : T(0);
    }
    __syncthreads();  // the tiles are complete
    for (int p = 0; p < BK; ++p) {
      // Constant trip counts: nvcc unrolls these loops and keeps acc, a_reg and b_reg in registers.
      for (int i = 0; i < TM; ++i) a_reg[i] = as[tr + i][p];
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[p][tc + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();  // everyone is done with the tiles before the next step overwrites them
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int row = row0 + tr + i, col = col0 + tc + j;
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
}

}  // namespace

TileShape tile_shape() { return kShape; }

#ifndef GPGPU_CUDA_EMULATION  // check_register_block_emulated.cpp runs the kernel above on the CPU
void launch_gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 grid((n + kShape.block_n - 1) / kShape.block_n, (m + kShape.block_m - 1) / kShape.block_m);
  gemm_register_block<float><<<grid, kThreads>>>(a, b, c, m, n, k);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_register_block (exercise 10)");
}
#endif

}  // namespace ex10
