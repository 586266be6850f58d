// Chapter 10, step 3: more work per thread, in one dimension. 10_02_tile16.cu does one multiply-add per
// two shared-memory loads. Here a block of 512 threads computes a 64 x 64 tile of C, and each
// thread a column of TM = 8 elements of it: per step p it loads one B value into a register and
// reuses it for 8 multiply-adds with 8 A values (9 loads for 8 multiply-adds instead of 16). The
// tiles are 64 x 8 of A and 8 x 64 of B, one element per thread each; zeros where they reach past
// the matrix, as before.
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [blocktile_1d]
template <typename T, int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__(BM * BN / TM) gemm_blocktile_1d(GemmArgs<T> g) {
  static_assert(BM * BK == BM * BN / TM && BK * BN == BM * BN / TM, "one element of each tile per thread");
  __shared__ T as[BM][BK];
  __shared__ T bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  //! [blocktile_1d_loop]
  const int a_row = t / BK, a_col = t % BK;  // the element of the A tile this thread loads
  const int b_row = t / BN, b_col = t % BN;  // and of the B tile
  const int c_col = t % BN;                  // the column of the C tile it computes,
  const int c_row = t / BN * TM;             // rows c_row ... c_row + TM - 1
  T acc[TM] = {};
  for (int p0 = 0; p0 < g.k; p0 += BK) {
    const int ar = row0 + a_row, ac = p0 + a_col, br = p0 + b_row, bc = col0 + b_col;
    as[a_row][a_col] = ar < g.m && ac < g.k ? g.a[ar * g.k + ac] : T(0);
    bs[b_row][b_col] = br < g.k && bc < g.n ? g.b[br * g.n + bc] : T(0);
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
      const T b = bs[p][c_col];  // one load, TM multiply-adds
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += as[c_row + i][p] * b;
    }
    __syncthreads();
  }
  //! [blocktile_1d_loop]
  const int col = col0 + c_col;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + c_row + i;
    if (row < g.m && col < g.n) g.c[row * g.n + col] = acc[i];
  }
}
//! [blocktile_1d]

/// The launch: a 64 x 64 tile of C per block, K in steps of 8, a column of 8 elements per thread
/// (512 threads).
struct Blocktile1dTiles {
  static constexpr int BM = 64, BN = 64, BK = 8, TM = 8, kThreads = BM * BN / TM;
};

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape blocktile_1d_shape() { return {Blocktile1dTiles::BM, Blocktile1dTiles::BN, Blocktile1dTiles::kThreads}; }

template <typename T>
void launch_blocktile_1d(const GemmArgs<T>& g, cudaStream_t stream) {
  using L = Blocktile1dTiles;
  const dim3 block(L::kThreads);
  const dim3 grid(blocks_for(g.n, L::BN), blocks_for(g.m, L::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_blocktile_1d: more block rows than gridDim.y allows");
  gemm_blocktile_1d<T, L::BM, L::BN, L::BK, L::TM><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_blocktile_1d");
}
template void launch_blocktile_1d<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_blocktile_1d<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
