// Chapter 10b, step 4: the tensor memory accelerator fills the tiles. Step 3 has all 128 threads
// copy A by cp.async and transpose B element by element into the swizzled tiles; here one thread
// asks TMA for one box per operand per k-step (cp.async.bulk.tensor.2d, tma.hpp), TMA writes each
// box swizzled as wgmma reads it (CU_TENSOR_MAP_SWIZZLE_128B: the layout steps 2 and 3 built by
// hand), zero-fills what lies outside the matrix, and completes its bytes on an mbarrier that every
// thread waits on. The products (wgmma_tile.hpp) and the store are step 3's.
//
// One stage, as step 3: the next boxes are requested only after every warp's wgmma has read the
// tiles, so TMA and the tensor cores still take turns; overlapping them is step 5 (several stages,
// each with its mbarrier, tc::stage_phase giving the stage and the parity to wait for).
//
// B must be K-major for wgmma, and TMA copies boxes as they lie (it cannot transpose 4-byte
// elements). For TF32 wgmma has no transpose (imm-trans-b is .f16/.bf16 only), so the kernel reads
// Bᵀ (n x k, row-major), a transposed copy of B the host code makes once before the product, timed
// and printed in the launch line as the BF16 rounding is; BF16 takes the same path so that both
// types share one kernel and one kind of map (imm-trans-b with B as it is, an MN-major descriptor,
// is for a later step to measure against it). Bᵀ being K-major, both operands are read alike: one
// map per operand, rows of k, boxes of 64 rows by 128 bytes (tma_map.hpp); and TMA's only shape
// limit, rows of a multiple of 16 bytes, is on k alone (where k gives other rows, the host copies A
// and Bᵀ into padded rows first: tc::tma_pitch).
//
// TF32 operands are rounded (cvt.rna) in shared memory after the boxes land, as in step 3: TMA
// copies bits, and wgmma cuts an unrounded float to its top 19 bits (the chapter's TF32 input test).
//
// Built for sm_90a only, with step 3 (kernels/blas/cuda/CMakeLists.txt); the chapter refuses any GPU
// but compute capability 9.0 before launching.
#include "tensor_core_launchers.hpp"

#include <type_traits>

#include "gpgpu/cuda/check.hpp"
#include "mma_sync.hpp"  // shared_address
#include "tensor_core_layout.hpp"
#include "tma.hpp"
#include "tma_stages.hpp"
#include "wgmma.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_tma(const __grid_constant__ CUtensorMap, const __grid_constant__ CUtensorMap, float*, int, int, int) {
  __trap();
}
#else
//! [tma_kernel]
template <typename In>
__global__ void __launch_bounds__(128) gemm_tma(const __grid_constant__ CUtensorMap a_map,
                                                const __grid_constant__ CUtensorMap bt_map, float* c, int m, int n, int k) {
  using Tiles = WgmmaTiles<In>;
  constexpr int BM = Tiles::BM, BN = Tiles::BN, BK = Tiles::BK, kRow = Tiles::kRowBytes, kStages = 1;
  __shared__ __align__(1024) unsigned char as[BM * kRow];  // A: BM rows (m) of 128 bytes of k
  __shared__ __align__(1024) unsigned char bs[BN * kRow];  // Bᵀ: BN rows (n) of 128 bytes of k
  __shared__ __align__(8) std::uint64_t full;              // the mbarrier: the boxes have landed
  const unsigned bar = shared_address(&full);
  const bool issuer = threadIdx.x == 0;
  if (issuer) {
    mbarrier_init(bar, 1);  // one arrival per phase: the issuer's, with the bytes it expects
    fence_mbarrier_init();
  }
  __syncthreads();  // the barrier is initialised before anyone uses it
  float acc[32] = {};
  const int steps = tc::tiles_for(k, BK);
  for (int s = 0; s < steps; ++s) {
    if (issuer) tma_load_k_step<In>(&a_map, &bt_map, shared_address(as), shared_address(bs), bar, blockIdx.y, blockIdx.x, s);
    mbarrier_wait_parity(bar, tc::stage_phase(s, kStages).parity);
    if constexpr (std::is_same_v<In, float>) {
      round_stage_to_tf32<Tiles::kThreads>(as, bs, static_cast<int>(threadIdx.x));  // and fenced for wgmma
      __syncthreads();
    }
    wgmma_k_block<In>(acc, shared_address(as), shared_address(bs));
    __syncthreads();  // every warp's wgmma has read the tiles before the issuer asks for the next boxes
  }
  store_wgmma_tile(acc, c, m, n, blockIdx.y * BM, blockIdx.x * BN, static_cast<int>(threadIdx.x));
}
//! [tma_kernel]
#endif

template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  gemm_tma<In><<<tma_grid(g, "gemm_tma"), WgmmaTiles<In>::kThreads, 0, stream>>>(g.a, g.bt, g.c, g.m, g.n, g.k);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_tma");
}

}  // namespace

GemmShape tma_shape() { return {WgmmaTiles<float>::BM, WgmmaTiles<float>::BN, WgmmaTiles<float>::kThreads}; }
int tma_box_rows() { return WgmmaTiles<float>::BM; }
void launch_tma_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_tma_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
