// Chapter 10b, step 6: producer and consumer. In step 5 the same warps issue TMA requests and
// multiply, and every k-step ends in a barrier of the whole block, which the TMA thread has to
// reach before it can refill a stage. Here the block has two warpgroups with one job each:
//   - the producer (warpgroup 0): one thread walks the k-steps, waits until a stage is empty and
//     asks TMA to fill it; the other 127 threads have nothing to do and leave;
//   - the consumer (warpgroup 1): waits until a stage is full, multiplies it with one wgmma group
//     kept in flight as in step 5, and, once a k-step's group has completed, arrives on the stage's
//     "empty" mbarrier (every consumer thread: its count is the consumer threads).
// Each stage has two mbarriers: "full" (one arrival, the producer's expect_tx, plus TMA's bytes)
// and "empty" (the consumers' arrivals). No barrier of the whole block after the start: the two
// sides meet only on the mbarriers. Which stage, which parity, when the producer must wait:
// pipeline_ring.hpp (tc::stage_phase, tc::empty_wait), simulated on the CPU with one and two
// consumers in random interleavings over awkward k-step counts (tests/test_pipeline_ring.cpp).
//
// setmaxnreg (warp_specialization.hpp) moves registers from the producer, which needs few, to the
// consumer, which holds the accumulators. With a 64 x 64 tile the consumer needs few as well (its
// 32 accumulators); the point is the mechanism, which step 7's 128 x 256 tile (two consumers, 128
// accumulators each) needs. The counts must fit the pool the block is launched with (see below).
//
// As in step 5: A and Bᵀ K-major through tensor maps, 4 stages in dynamic shared memory, TF32
// rounded in shared memory after landing (by the consumer, over a barrier of its 128 threads).
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

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

//! [ws_config]
constexpr int kStages = 4;
constexpr int kWarpgroup = 128;
constexpr int kThreads = 2 * kWarpgroup;  // warpgroup 0 produces, warpgroup 1 consumes
constexpr int kConsumerThreads = kWarpgroup;
constexpr int kConsumerBarrier = 1;  // bar.sync id of the consumer's own barrier (0 is __syncthreads')
// setmaxnreg's counts (multiples of 8 in 24 .. 256). The pool is the launch's register count
// times 256 threads; __launch_bounds__(256, 1) lets ptxas give each thread up to 255 (it reports
// the count it chose, ptxas -v). The two warpgroups' new counts together must not exceed twice the
// launch count, else the consumer's .inc never returns: 40 + 232 = 272 needs a launch count of 136
// or more, which launch() checks (check_register_pool) before the first launch, so that a build
// that gives fewer fails with the reason instead of hanging.
constexpr RegisterSplit kSplit{40, 232, 1};
static_assert((kSplit.producer + kSplit.consumer) / 2 <= 255, "the pool a 256-thread block can have");

template <typename In>
using Tiles = WgmmaTiles<In>;  // one consumer of 64 x 64
//! [ws_config]

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_warp_specialized(const __grid_constant__ TmaArgs) {
  __trap();
}
#else
//! [ws_kernel]
template <typename In>
__global__ void __launch_bounds__(kThreads, 1) gemm_warp_specialized(const __grid_constant__ TmaArgs g) {
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
  const int thread = static_cast<int>(threadIdx.x) - kWarpgroup;  // within the consumer warpgroup
  float acc[T::kAccumulators];  // set by the first k-step's first wgmma (accumulate 0), as step 5
  for (int s = 0; s < steps; ++s) {
    const tc::StagePhase p = tc::stage_phase(s, kStages);
    mbarrier_wait_parity(ring.full(p.stage), p.parity);
    if constexpr (std::is_same_v<In, float>) {
      round_stage_to_tf32<kConsumerThreads>(ring.a_tile(p.stage), ring.b_tile(p.stage), thread);
      named_barrier_sync(kConsumerBarrier, kConsumerThreads);
    }
    wgmma_k_block_async<In>(acc, ring.a(p.stage), ring.b(p.stage), s > 0);
    wgmma_wait_group<1>();  // k-step s - 1's products are done: its stage may be refilled
    if (s > 0) mbarrier_arrive(ring.empty(tc::stage_phase(s - 1, kStages).stage));
  }
  wgmma_wait_group<0>();
  // The last k-step's release: no producer waits for it, but every use of a stage is released
  // once, as the simulation checks.
  mbarrier_arrive(ring.empty(tc::stage_phase(steps - 1, kStages).stage));
  store_wgmma_tile(acc, g.c, g.m, g.n, blockIdx.y * T::BM, blockIdx.x * T::BN, thread);
}
//! [ws_kernel]
#endif

template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<In, kStages, Tiles<In>>::kDynamicBytes;
  prepare_warp_specialized<gemm_warp_specialized<In>>("gemm_warp_specialized", kSplit, kBytes);
  gemm_warp_specialized<In><<<tma_grid(g, "gemm_warp_specialized"), kThreads, kBytes, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_warp_specialized");
}

}  // namespace

GemmShape ws_shape() { return {Tiles<float>::BM, Tiles<float>::BN, kThreads}; }
int ws_stages() { return kStages; }
void launch_ws_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_ws_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
