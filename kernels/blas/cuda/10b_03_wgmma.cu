// Chapter 10b, step 3: from the warp to the warpgroup. mma.sync (step 2) has each warp load its
// fragments into registers and issue 16 x 8 products; wgmma.mma_async has 4 warps (a warpgroup,
// 128 threads) issue one 64 x N x K product together, here reading A and B straight from shared
// memory through matrix descriptors (B must come from there; A could also come from registers), and
// running asynchronously until wgmma.wait_group (wgmma.hpp). No ldmatrix, no fragments of A or B in
// registers: only the accumulators.
//
// This skeleton is deliberately the smallest correct use: one warpgroup per block, a 64 x 64 tile
// of C, one m64n64 wgmma per 32 bytes of K (k8 for TF32, k16 for BF16), K in steps of 128 bytes of
// each operand, one buffer, the wgmma waited for before the tiles are refilled. The later steps
// keep its shared layout and change who fills it (TMA, step 4), how many buffers (pipelining) and
// how large the tile is.
//
// The shared layout is step 2's: rows of 128 bytes of K, 16-byte chunks XORed with row % 8 (the
// 128-byte swizzle), tiles on 1024-byte boundaries, so that descriptors with swizzle mode 128B
// read them (tc::kmajor_sw128_descriptor). Both operands are K-major there: A (row-major, k
// contiguous) is copied as it is, by cp.async chunks. B is row-major too (n contiguous), but wgmma
// reads B as "column-major" (K-major: k contiguous for each n), and its transpose operand
// (imm-trans-b) exists only for .f16/.bf16 (PTX ISA, wgmma.mma_async: "The transpose operation is
// only supported for the wgmma.mma_async variants with .f16/.bf16 types"). So B is transposed
// while it is staged: thread t loads B(k, n) for consecutive n (coalesced) and stores it at row n,
// byte k of the tile. That cannot be a cp.async (a 16-byte chunk of Bᵀ gathers 4 or 8 rows of B),
// and it costs shared-memory bank conflicts on the stores; BF16 keeps the same path here so that
// one layout serves both (from step 4 on, the host makes a transposed copy of B once).
//
// TF32 operands are rounded (cvt.rna) in shared memory before the wgmma: B as it is staged, A in
// place after its copy, as cuBLAS rounds them; unrounded, the tensor core would cut each to its top
// 19 bits (the chapter's TF32 input test found it; steps 7-10 round in the preparation instead).
//
// Built for sm_90a only (its own object library, kernels/blas/cuda/CMakeLists.txt); every other
// target gets a stub, and the chapter refuses any GPU but compute capability 9.0 before launching.
#include "tensor_core_launchers.hpp"

#include <stdexcept>
#include <type_traits>

#include "gpgpu/cuda/check.hpp"
#include "mma_sync.hpp"  // to_tf32, shared_address
#include "swizzled_staging.hpp"
#include "tensor_core_layout.hpp"
#include "wgmma.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In, bool Aligned>
__global__ void gemm_wgmma(TensorCoreArgs<In>) {
  __trap();
}
#else
//! [wgmma_kernel]
template <typename In, bool Aligned>
__global__ void __launch_bounds__(128) gemm_wgmma(TensorCoreArgs<In> g) {
  using Tiles = WgmmaTiles<In>;
  constexpr bool kTf32 = std::is_same_v<In, float>;
  constexpr int BM = Tiles::BM, BN = Tiles::BN, BK = Tiles::BK, kRow = Tiles::kRowBytes;
  constexpr tc::Swizzle kSwizzle = tc::Swizzle::b128;
  __shared__ __align__(1024) unsigned char as[BM * kRow];  // A: BM rows (m) of 128 bytes of k
  __shared__ __align__(1024) unsigned char bs[BN * kRow];  // Bᵀ: BN rows (n) of 128 bytes of k
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN, t = threadIdx.x;
  float acc[BN / 2] = {};
  for (int p0 = 0; p0 < g.k; p0 += BK) {
    stage_rows_128b<In, Aligned, BM, Tiles::kThreads>(as, g.a, g.m, g.k, row0, p0);  // A as it is
    copy_async_commit();
    for (int e = t; e < BK * BN; e += Tiles::kThreads) {  // B transposed: (k, n) to row n, byte k
      const int kk = e / BN, n = e % BN, gk = p0 + kk, gn = col0 + n;
      In v = gk < g.k && gn < g.n ? g.b[gk * g.n + gn] : In(0.0f);
      if constexpr (kTf32) v = __uint_as_float(to_tf32(v));
      *reinterpret_cast<In*>(bs + tc::swizzled_offset(n, kk * sizeof(In), kRow, kSwizzle)) = v;
    }
    copy_async_wait<0>();
    if constexpr (kTf32) {
      __syncthreads();  // A's chunks, copied by every thread, are in place
      round_tile_to_tf32<Tiles::kThreads>(as, BM * BK, static_cast<int>(threadIdx.x));
    }
    fence_proxy_async_shared();  // this thread's tile writes, visible to wgmma's reads
    __syncthreads();
    wgmma_k_block<In>(acc, shared_address(as), shared_address(bs));
    __syncthreads();  // every warp's wgmma has read the tiles before they are overwritten
  }
  store_wgmma_tile(acc, g.c, g.m, g.n, row0, col0, static_cast<int>(threadIdx.x));
}
//! [wgmma_kernel]
#endif

template <typename In>
void launch(const TensorCoreArgs<In>& g, cudaStream_t stream) {
  using Tiles = WgmmaTiles<In>;
  const dim3 grid(blocks_for(g.n, Tiles::BN), blocks_for(g.m, Tiles::BM));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_wgmma: more block rows than gridDim.y allows");
  if (g.k % kChunkElements<In> == 0)  // A's chunks inside or outside as a whole
    gemm_wgmma<In, true><<<grid, Tiles::kThreads, 0, stream>>>(g);
  else
    gemm_wgmma<In, false><<<grid, Tiles::kThreads, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_wgmma");
}

}  // namespace

GemmShape wgmma_shape() { return {WgmmaTiles<float>::BM, WgmmaTiles<float>::BN, WgmmaTiles<float>::kThreads}; }
void launch_wgmma(const TensorCoreArgs<float>& g, cudaStream_t stream) { launch(g, stream); }
void launch_wgmma(const TensorCoreArgs<Bf16>& g, cudaStream_t stream) { launch(g, stream); }

}  // namespace gpgpu::blas::cuda
