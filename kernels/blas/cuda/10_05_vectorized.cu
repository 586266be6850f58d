// Chapter 10, step 5: 10_04_blocktile_2d.cu with wider loads and a transposed A tile. Global loads are
// now 16 bytes each (four floats or two doubles along a row) where the rows allow it, a quarter of
// the load instructions. The A tile is stored transposed, as[p][row], so the TM values a thread
// needs at step p are neighbours in shared memory (one or two 16-byte shared loads instead of eight
// strided ones), like the TN values of B were already. At an edge, or when k or n is no multiple
// of the vector width, the same thread loads the same elements one by one (vector_load.hpp).
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"
#include "vector_load.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [vectorized]
template <typename T, int BM, int BN, int BK, int TM, int TN, bool Aligned>
__global__ void __launch_bounds__(BM * BN / (TM * TN)) gemm_vectorized(GemmArgs<T> g) {
  constexpr int kThreads = BM * BN / (TM * TN), L = Vec16<T>::lanes;
  __shared__ __align__(16) T as[BK][BM];  // transposed: as[p][r] is A(row0 + r, p0 + p); 16-byte rows for vector reads
  __shared__ __align__(16) T bs[BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  //! [vectorized_body]
  //! [vectorized_loop]
  const int c_row = t / (BN / TN) * TM, c_col = t % (BN / TN) * TN;
  T acc[TM][TN] = {};
  T a_reg[TM], b_reg[TN], seg[L];
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
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = as[p][c_row + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[p][c_col + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();
  }
  //! [vectorized_loop]
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int row = row0 + c_row + i, col = col0 + c_col + j;
      if (row < g.m && col < g.n) g.c[row * g.n + col] = acc[i][j];
    }
  //! [vectorized_body]
}
//! [vectorized]

/// The launch (step 4's tiles): a 128 x 128 tile of C per block, K in steps of 8, 8 x 8 elements
/// per thread (256 threads).
struct VectorizedTiles {
  static constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, kThreads = BM * BN / (TM * TN);
};

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape vectorized_shape() { return {VectorizedTiles::BM, VectorizedTiles::BN, VectorizedTiles::kThreads}; }

template <typename T>
void launch_vectorized(const GemmArgs<T>& g, cudaStream_t stream) {
  using L = VectorizedTiles;
  const dim3 block(L::kThreads);
  const dim3 grid(blocks_for(g.n, L::BN), blocks_for(g.m, L::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_vectorized: more block rows than gridDim.y allows");
  // 16-byte loads need every row to start on a 16-byte boundary (cudaMalloc aligns the first).
  if (g.k % Vec16<T>::lanes == 0 && g.n % Vec16<T>::lanes == 0)
    gemm_vectorized<T, L::BM, L::BN, L::BK, L::TM, L::TN, true><<<grid, block, 0, stream>>>(g);
  else
    gemm_vectorized<T, L::BM, L::BN, L::BK, L::TM, L::TN, false><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_vectorized");
}
template void launch_vectorized<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_vectorized<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
