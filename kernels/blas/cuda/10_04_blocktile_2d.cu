// Chapter 10, step 4: more work per thread, in two dimensions. Each of 256 threads computes an
// 8 x 8 block of a 128 x 128 tile of C: per step p it loads 8 A values and 8 B values into
// registers and does their 64 products (16 loads for 64 multiply-adds; 10_03_blocktile_1d.cu needed
// 72 loads for them). The tiles are 128 x 8 of A and 8 x 128 of B, four elements per thread each.
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [blocktile_2d]
template <typename T, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(BM * BN / (TM * TN)) gemm_blocktile_2d(GemmArgs<T> g) {
  constexpr int kThreads = BM * BN / (TM * TN);
  __shared__ T as[BM][BK];
  __shared__ T bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  //! [blocktile_2d_loop]
  const int c_row = t / (BN / TN) * TM, c_col = t % (BN / TN) * TN;  // this thread's TM x TN block of the tile
  T acc[TM][TN] = {};
  T a_reg[TM], b_reg[TN];
  for (int p0 = 0; p0 < g.k; p0 += BK) {
    for (int e = t; e < BM * BK; e += kThreads) {
      const int r = row0 + e / BK, c = p0 + e % BK;
      as[e / BK][e % BK] = r < g.m && c < g.k ? g.a[r * g.k + c] : T(0);
    }
    for (int e = t; e < BK * BN; e += kThreads) {
      const int r = p0 + e / BN, c = col0 + e % BN;
      bs[e / BN][e % BN] = r < g.k && c < g.n ? g.b[r * g.n + c] : T(0);
    }
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = as[c_row + i][p];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[p][c_col + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
  //! [blocktile_2d_loop]
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int row = row0 + c_row + i, col = col0 + c_col + j;
      if (row < g.m && col < g.n) g.c[row * g.n + col] = acc[i][j];
    }
}
//! [blocktile_2d]

/// The launch: a 128 x 128 tile of C per block, K in steps of 8, 8 x 8 elements per thread (256
/// threads).
struct Blocktile2dTiles {
  static constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, kThreads = BM * BN / (TM * TN);
};

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape blocktile_2d_shape() { return {Blocktile2dTiles::BM, Blocktile2dTiles::BN, Blocktile2dTiles::kThreads}; }

template <typename T>
void launch_blocktile_2d(const GemmArgs<T>& g, cudaStream_t stream) {
  using L = Blocktile2dTiles;
  const dim3 block(L::kThreads);
  const dim3 grid(blocks_for(g.n, L::BN), blocks_for(g.m, L::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_blocktile_2d: more block rows than gridDim.y allows");
  gemm_blocktile_2d<T, L::BM, L::BN, L::BK, L::TM, L::TN><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_blocktile_2d");
}
template void launch_blocktile_2d<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_blocktile_2d<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
