// Chapter 10b, step 7: a 128 x 256 tile and two consumers. Step 6's block computes 64 x 64 of C:
// per k-step it brings 64 rows of A and 64 rows of Bᵀ (16 KiB) into shared memory for 64·64
// elements of C, 0.25 elements per byte (16 multiply-adds per byte in BF16); its consumer holds 32
// accumulators, so setmaxnreg has nothing to give it. Here a block computes 128 x 256: 48 KiB per
// k-step for 128·256 elements, 0.67 per byte (43 multiply-adds per byte in BF16), so the same
// tensor-core rate needs 2.7 times fewer bytes from L2 and DRAM. Two consumer warpgroups share the
// stage: consumer c multiplies rows 64c .. 64c + 63 of the A tile with the whole Bᵀ tile by m64n256
// wgmma (wgmma.hpp), the widest there is, into 128 accumulators per thread. That is where
// setmaxnreg pays: 3 warpgroups of 168 registers (the most 384 threads may have, 65,536 / 384
// rounded down to 8) become a producer of 40 and two consumers of 232.
//
// What does not change from step 6: the producer thread, the full and empty mbarriers of each stage
// (the empty one now counts both consumers' threads), the ring's bookkeeping (pipeline_ring.hpp,
// simulated on the CPU with two consumers), one wgmma group in flight per consumer. A stage holds
// several TMA boxes per operand now (tma_load_k_step: 2 of A, 4 of Bᵀ), 48 KiB: 4 stages fit.
//
// TF32: steps 3 to 6 round each staged tile to TF32 in shared memory (cvt.rna) before wgmma reads
// it. At this tile the pass would read and write 48 KiB per k-step behind a barrier of the
// consumers, as many shared-memory cycles as the k-step's wgmmas take. Here the preparation rounds
// A and Bᵀ once in global memory (10b_round_inputs.cu, beside Bᵀ's copy), and wgmma reads the tiles
// as they landed: handed an unrounded float, the tensor core would cut it to its top 19 bits, an
// input error of 2^-10 where the chapter's bound allows 2^-11 (the chapter's TF32 input test).
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include "gpgpu/cuda/check.hpp"
#include "pipeline_ring.hpp"
#include "tensor_core_layout.hpp"
#include "tma.hpp"
#include "tma_stages.hpp"
#include "warp_specialization.hpp"
#include "wgmma.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [wide_config]
template <typename In>
using Tiles = WgmmaTiles<In, 2, 256>;  // two consumers of 64 x 256: a 128 x 256 tile
constexpr int kStages = 4;             // 4 x 48 KiB: a fifth would pass the 227 KiB a block may have
constexpr int kWarpgroup = 128;
constexpr int kConsumers = 2;
constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
constexpr int kConsumerThreads = kConsumers * kWarpgroup;
// 40 + 2 x 232 = 504 = 3 x 168: the whole pool of a block launched with 168 registers per thread,
// which __launch_bounds__(384, 1) lets ptxas use; check_register_pool verifies the build did.
constexpr RegisterSplit kSplit{40, 232, kConsumers};
//! [wide_config]

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_wide_tile(const __grid_constant__ TmaArgs) {
  __trap();
}
#else
//! [wide_tile_kernel]
template <typename In>
__global__ void __launch_bounds__(kThreads, 1) gemm_wide_tile(const __grid_constant__ TmaArgs g) {
  using T = Tiles<In>;
  extern __shared__ unsigned char dynamic[];
  const TmaRing<In, kStages, T> ring(dynamic);
  const int steps = tc::tiles_for(g.k, T::BK);
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(ring.full(i), 1);                  // the producer's arrival (with TMA's bytes)
      mbarrier_init(ring.empty(i), kConsumerThreads);  // every consumer thread's
    }
    fence_mbarrier_init();
  }
  __syncthreads();  // the last barrier of the whole block: the producer's warps leave early

  if (threadIdx.x < kWarpgroup) {  // the producer (whole warps: the branch is warp-uniform)
    setmaxnreg_dec<kSplit.producer>();
    if (threadIdx.x == 0) {
      for (int s = 0; s < steps; ++s) {
        const tc::StagePhase p = tc::stage_phase(s, kStages);
        const tc::EmptyWait w = tc::empty_wait(s, kStages);
        if (w.wait) mbarrier_wait_parity(ring.empty(p.stage), w.parity);  // k-step s - kStages is multiplied
        tma_load_k_step<In, T>(&g.a, &g.bt, ring.a(p.stage), ring.b(p.stage), ring.full(p.stage), blockIdx.y, blockIdx.x, s);
      }
    }
    return;
  }

  setmaxnreg_inc<kSplit.consumer>();
  const int consumer = static_cast<int>(threadIdx.x) / kWarpgroup - 1;  // 0 or 1: which 64 rows of the tile
  const int thread = static_cast<int>(threadIdx.x) % kWarpgroup;
  const unsigned a_rows = static_cast<unsigned>(consumer * 64 * T::kRowBytes);  // its rows within the A tile
  float acc[T::kAccumulators];  // set by the first k-step's first wgmma (accumulate 0), as step 5
  for (int s = 0; s < steps; ++s) {
    const tc::StagePhase p = tc::stage_phase(s, kStages);
    mbarrier_wait_parity(ring.full(p.stage), p.parity);
    wgmma_k_block_async<In>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage), s > 0);
    wgmma_wait_group<1>();  // k-step s - 1's products are done: its stage may be refilled
    if (s > 0) mbarrier_arrive(ring.empty(tc::stage_phase(s - 1, kStages).stage));
  }
  wgmma_wait_group<0>();
  // The last k-step's release: no producer waits for it, but every use of a stage is released
  // once, as the simulation checks.
  mbarrier_arrive(ring.empty(tc::stage_phase(steps - 1, kStages).stage));
  store_wgmma_tile(acc, g.c, g.m, g.n, blockIdx.y * T::BM + consumer * 64, blockIdx.x * T::BN, thread);
}
//! [wide_tile_kernel]
#endif

template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<In, kStages, Tiles<In>>::kDynamicBytes;
  prepare_warp_specialized<gemm_wide_tile<In>>("gemm_wide_tile", kSplit, kBytes);
  gemm_wide_tile<In><<<tma_grid<Tiles<In>>(g, "gemm_wide_tile"), kThreads, kBytes, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_wide_tile");
}

}  // namespace

GemmShape wide_tile_shape() { return {Tiles<float>::BM, Tiles<float>::BN, kThreads}; }
int wide_tile_stages() { return kStages; }
void launch_wide_tile_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_wide_tile_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
