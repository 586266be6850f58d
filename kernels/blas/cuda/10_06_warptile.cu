// Chapter 10, step 6: 10_05_vectorized.cu with warp tiling. The loads and tiles are unchanged; what
// changes is which 64 elements of C a thread computes. Before, the 32 threads of a warp covered
// 16 rows x 128 columns of the tile, so at each step p a warp read 16 A values and 128 B values
// from shared memory. Now the 8 warps split the 128 x 128 tile into 4 x 2 warp tiles of 32 x 64,
// and a warp reads 32 + 64 values per step: fewer shared-memory loads per multiply-add. Inside
// its warp tile a thread (lane row lr = 0..3, lane column lc = 0..7) computes 2 x 2 blocks of
// 4 x 4, 16 rows and 32 columns apart, so the 8 lanes that share a row read 8 neighbouring float4
// of B (one 128-byte transaction, no bank conflict) and the 4 lane rows 4 neighbouring float4 of A.
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"
#include "vector_load.hpp"
#include "warp_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [warptile]
template <typename T, int BM, int BN, int BK, int TM, int TN, bool Aligned>
__global__ void __launch_bounds__(BM * BN / (TM * TN)) gemm_warptile(GemmArgs<T> g) {
  constexpr int kThreads = BM * BN / (TM * TN), L = Vec16<T>::lanes;
  __shared__ __align__(16) T as[BK][BM];  // transposed: as[p][r] is A(row0 + r, p0 + p); 16-byte rows for vector reads
  __shared__ __align__(16) T bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  //! [warptile_body]
  static_assert(BM / kWarpM * (BN / kWarpN) * 32 == kThreads && TM == 2 * 4 && TN == 2 * 4, "8 warps of 4 x 8 lanes");
  const int warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / kWarpN) * kWarpM, w_col = warp % (BN / kWarpN) * kWarpN;  // the warp's tile
  const int c_row = w_row + lane / 8 * 4, c_col = w_col + lane % 8 * 4;  // + 16 i / 4 and + 32 j / 4 (below)
  T acc[TM][TN] = {};
  T a_reg[TM], b_reg[TN], seg[L];
  //! [warptile_loop_head]
  for (int p0 = 0; p0 < g.k; p0 += BK) {
    for (int e = t; e < BM * BK / L; e += kThreads) {
      const int r = e / (BK / L), c = e % (BK / L) * L;  // segment (r, c ... c + L - 1) of the A tile
      const int row = row0 + r;
      load_segment<T, Aligned>(g.a + (row < g.m ? row * g.k : 0), p0 + c, row < g.m ? g.k - (p0 + c) : 0, seg);
#pragma unroll
      for (int l = 0; l < L; ++l) as[c + l][r] = seg[l];
    }
    for (int e = t; e < BK * BN / L; e += kThreads) {
      const int r = e / (BN / L), c = e % (BN / L) * L;
      const int row = p0 + r;
      load_segment<T, Aligned>(g.b + (row < g.k ? row * g.n : 0), col0 + c, row < g.k ? g.n - (col0 + c) : 0, seg);
#pragma unroll
      for (int l = 0; l < L; ++l) bs[r][c + l] = seg[l];
    }
    __syncthreads();
  //! [warptile_loop_head]
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = as[p][c_row + row_of(i)];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[p][c_col + col_of(j)];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
  store_thread_tile(g, acc, row0 + c_row, col0 + c_col);
  //! [warptile_body]
}
//! [warptile]

/// The launch (step 4's tiles): a 128 x 128 tile of C per block, K in steps of 8, 8 x 8 elements
/// per thread (256 threads), in 32 x 64 warp tiles (warp_tile.hpp).
struct WarptileTiles {
  static constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, kThreads = BM * BN / (TM * TN);
};

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape warptile_shape() { return {WarptileTiles::BM, WarptileTiles::BN, WarptileTiles::kThreads}; }

template <typename T>
void launch_warptile(const GemmArgs<T>& g, cudaStream_t stream) {
  using L = WarptileTiles;
  const dim3 block(L::kThreads);
  const dim3 grid(blocks_for(g.n, L::BN), blocks_for(g.m, L::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_warptile: more block rows than gridDim.y allows");
  // 16-byte loads need every row to start on a 16-byte boundary (cudaMalloc aligns the first).
  if (g.k % Vec16<T>::lanes == 0 && g.n % Vec16<T>::lanes == 0)
    gemm_warptile<T, L::BM, L::BN, L::BK, L::TM, L::TN, true><<<grid, block, 0, stream>>>(g);
  else
    gemm_warptile<T, L::BM, L::BN, L::BK, L::TM, L::TN, false><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_warptile");
}
template void launch_warptile<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_warptile<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
