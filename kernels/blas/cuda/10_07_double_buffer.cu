// Chapter 10, step 7: 10_06_warptile.cu with double buffering. Before, the block loaded a tile, waited
// at a barrier, computed, waited again: while the loads were in flight the arithmetic units idled
// unless other blocks on the SM had work. Now there are two buffers per tile: while the block
// computes on one, the loads of the next step go into the other, by cp.async (async_copy.hpp),
// which the thread issues without waiting for. It waits (wait_group) only before the barrier that
// precedes the compute on that buffer. The A tile is still stored transposed: cp.async cannot
// transpose 16 bytes, so A goes element by element; B goes 16 bytes at a time where aligned.
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"
#include "async_copy.hpp"
#include "vector_load.hpp"
#include "warp_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [double_buffer]
template <typename T, int BM, int BN, int BK, int TM, int TN, bool Aligned>
__global__ void __launch_bounds__(BM * BN / (TM * TN)) gemm_double_buffer(GemmArgs<T> g) {
  constexpr int kThreads = BM * BN / (TM * TN), L = Vec16<T>::lanes;
  __shared__ __align__(16) T as[2][BK][BM];  // two buffers; transposed: as[s][p][r] is A(row0 + r, p0 + p)
  __shared__ __align__(16) T bs[2][BK][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x;
  static_assert(BM / kWarpM * (BN / kWarpN) * 32 == kThreads && TM == 2 * 4 && TN == 2 * 4, "8 warps of 4 x 8 lanes");
  const int warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / kWarpN) * kWarpM, w_col = warp % (BN / kWarpN) * kWarpN;  // the warp's tile
  const int c_row = w_row + lane / 8 * 4, c_col = w_col + lane % 8 * 4;  // + 16 i / 4 and + 32 j / 4 (below)
  T acc[TM][TN] = {};
  T a_reg[TM], b_reg[TN];
  //! [double_buffer_loop_head]
  // Issues the copies of the tiles at p0 into buffer s; outside the matrices the copy writes zeros
  // and reads nothing (its source is then the matrix's first element, a valid address).
  const auto load_tiles = [&](int s, int p0) {
    for (int e = t; e < BM * BK / L; e += kThreads) {
      const int r = e / (BK / L), c = e % (BK / L) * L;  // segment (r, c ... c + L - 1) of the A tile
      const int row = row0 + r;
#pragma unroll
      for (int l = 0; l < L; ++l) {
        const bool inside = row < g.m && p0 + c + l < g.k;
        copy_async<sizeof(T)>(&as[s][c + l][r], inside ? g.a + row * g.k + p0 + c + l : g.a, inside);
      }
    }
    copy_tile_async<kThreads, Aligned>(bs[s], g.b, g.k, g.n, p0, col0, t);  // 16 bytes at a time where aligned
    copy_async_commit();
  };
  //! [double_buffer_pipeline]
  const int steps = (g.k + BK - 1) / BK;
  load_tiles(0, 0);
  for (int step = 0; step < steps; ++step) {
    const int s = step % 2;
    if (step + 1 < steps) {
      load_tiles(1 - s, (step + 1) * BK);  // buffer 1 - s was last read in step - 1, before its closing barrier
      copy_async_wait<1>();                // this step's group has landed, the next may still be in flight
    } else {
      copy_async_wait<0>();
    }
    __syncthreads();  // every thread's copies into buffer s are visible
  //! [double_buffer_loop_head]
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = as[s][p][c_row + row_of(i)];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[s][p][c_col + col_of(j)];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    __syncthreads();  // done with buffer s before step + 1 issues copies into it
  }
  //! [double_buffer_pipeline]
  store_thread_tile(g, acc, row0 + c_row, col0 + c_col);
}
//! [double_buffer]

/// The launch (step 6's tiles): a 128 x 128 tile of C per block, K in steps of 8, 8 x 8 elements
/// per thread (256 threads), in 32 x 64 warp tiles (warp_tile.hpp).
struct DoubleBufferTiles {
  static constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, kThreads = BM * BN / (TM * TN);
};

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape double_buffer_shape() { return {DoubleBufferTiles::BM, DoubleBufferTiles::BN, DoubleBufferTiles::kThreads}; }

template <typename T>
void launch_double_buffer(const GemmArgs<T>& g, cudaStream_t stream) {
  using L = DoubleBufferTiles;
  const dim3 block(L::kThreads);
  const dim3 grid(blocks_for(g.n, L::BN), blocks_for(g.m, L::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_double_buffer: more block rows than gridDim.y allows");
  // 16-byte loads need every row to start on a 16-byte boundary (cudaMalloc aligns the first).
  if (g.k % Vec16<T>::lanes == 0 && g.n % Vec16<T>::lanes == 0)
    gemm_double_buffer<T, L::BM, L::BN, L::BK, L::TM, L::TN, true><<<grid, block, 0, stream>>>(g);
  else
    gemm_double_buffer<T, L::BM, L::BN, L::BK, L::TM, L::TN, false><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_double_buffer");
}
template void launch_double_buffer<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_double_buffer<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
