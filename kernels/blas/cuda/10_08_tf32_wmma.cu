// Chapter 10, step 8: past FP32, on the tensor cores. A tensor core multiplies small matrices in
// one instruction: with TF32 inputs (FP32's 8 exponent bits, 10 of its 23 mantissa bits) and FP32
// sums, a warp computes a 16 x 16 x 8 product per mma. The structure is 10_05_vectorized.cu's: a block
// of 8 warps computes a 128 x 128 tile of C, K in steps of 16; each warp a 32 x 64 warp tile as
// 2 x 4 accumulator fragments (WMMA, the C++ face of mma.sync). The tiles are staged through
// shared memory as before (zeros past the edges), A now row-major, both padded by 4 floats (a
// fragment's rows must start on 16 bytes; the padding also spreads them over the banks). The
// result goes through a per-warp staging tile, so only elements inside C are written. The price:
// inputs rounded to 11 significant bits, error bound (1 + 2^-11)^2 (1 + γ_k) - 1 instead of γ_k.
#include "launchers.hpp"

#include <stdexcept>

#include <mma.h>

#include "gpgpu/cuda/check.hpp"
#include "vector_load.hpp"

namespace gpgpu::blas::cuda {
namespace {

namespace wmma = nvcuda::wmma;

/// The launch: a 128 x 128 tile of C per block of 8 warps (256 threads), K in steps of 16.
constexpr int kWmmaBM = 128, kWmmaBN = 128, kWmmaBK = 16, kWmmaThreads = 256;

// __launch_bounds__(256, 2): at most 128 registers, so two blocks share an SM. Without the 2,
// ptxas gave the aligned instance a few registers more: one block (8 warps) per SM, too few warps
// to keep the tensor pipes busy (Nsight Compute found them idle most of the time).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
// TF32 tensor cores begin with compute capability 8.0: for older targets of a fat binary (CI builds
// sm_75 too) the kernel is a stub, and the variant refuses such GPUs before launching it
// (chapters/10_matrix_multiply/cuda_variants.cpp).
template <bool Aligned>
__global__ void gemm_tf32_wmma(GemmArgs<float>) {
  __trap();
}
#else
//! [tf32_wmma]
template <bool Aligned>
__global__ void __launch_bounds__(256, 2) gemm_tf32_wmma(GemmArgs<float> g) {
  constexpr int BM = kWmmaBM, BN = kWmmaBN, BK = kWmmaBK, kThreads = kWmmaThreads, L = 4;
  constexpr int kLda = BK + 4, kLdb = BN + 4;       // padded rows, multiples of 4 floats
  constexpr int kWarpM = 32, kWarpN = 64;           // 4 x 2 warp tiles
  constexpr int kFragsM = kWarpM / 16, kFragsN = kWarpN / 16;
  __shared__ __align__(32) float as[BM][kLda];
  __shared__ __align__(32) float bs[BK][kLdb];
  __shared__ __align__(32) float stage[kThreads / 32][16 * 16];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / kWarpN) * kWarpM, w_col = warp % (BN / kWarpN) * kWarpN;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  float seg[L];
  for (int p0 = 0; p0 < g.k; p0 += BK) {
    for (int e = t; e < BM * BK / L; e += kThreads) {
      const int r = e / (BK / L), c = e % (BK / L) * L;
      const int row = row0 + r;
      load_segment<float, Aligned>(g.a + (row < g.m ? row * g.k : 0), p0 + c, row < g.m ? g.k - (p0 + c) : 0, seg);
#pragma unroll
      for (int l = 0; l < L; ++l) as[r][c + l] = seg[l];
    }
    for (int e = t; e < BK * BN / L; e += kThreads) {
      const int r = e / (BN / L), c = e % (BN / L) * L;
      const int row = p0 + r;
      load_segment<float, Aligned>(g.b + (row < g.k ? row * g.n : 0), col0 + c, row < g.k ? g.n - (col0 + c) : 0, seg);
#pragma unroll
      for (int l = 0; l < L; ++l) bs[r][c + l] = seg[l];
    }
    __syncthreads();
#pragma unroll
//! [tf32_wmma_step]
    for (int kk = 0; kk < BK; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[kFragsM];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[kFragsN];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        wmma::load_matrix_sync(a[i], &as[w_row + 16 * i][kk], kLda);
#pragma unroll
        for (int x = 0; x < a[i].num_elements; ++x) a[i].x[x] = wmma::__float_to_tf32(a[i].x[x]);
      }
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        wmma::load_matrix_sync(b[j], &bs[kk][w_col + 16 * j], kLdb);
#pragma unroll
        for (int x = 0; x < b[j].num_elements; ++x) b[j].x[x] = wmma::__float_to_tf32(b[j].x[x]);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
//! [tf32_wmma_step]
    __syncthreads();
  }
  // Each fragment through the warp's staging tile, so that only elements inside C are stored.
  // (Unrolled: a fragment indexed by a loop variable would live in local memory, not registers.)
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      wmma::store_matrix_sync(stage[warp], acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 16 * 16; e += 32) {
        const int row = row0 + w_row + 16 * i + e / 16, col = col0 + w_col + 16 * j + e % 16;
        if (row < g.m && col < g.n) g.c[row * g.n + col] = stage[warp][e];
      }
      __syncwarp();  // the staging tile is read before the next fragment overwrites it
    }
}
//! [tf32_wmma]
#endif

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape tf32_wmma_shape() { return {kWmmaBM, kWmmaBN, kWmmaThreads}; }

void launch_tf32_wmma(const GemmArgs<float>& g, cudaStream_t stream) {
  const dim3 block(kWmmaThreads);
  const dim3 grid(blocks_for(g.n, kWmmaBN), blocks_for(g.m, kWmmaBM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_tf32_wmma: more block rows than gridDim.y allows");
  if (g.k % 4 == 0 && g.n % 4 == 0)
    gemm_tf32_wmma<true><<<grid, block, 0, stream>>>(g);
  else
    gemm_tf32_wmma<false><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_tf32_wmma");
}
#endif

}  // namespace gpgpu::blas::cuda
