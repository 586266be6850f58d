// Chapter 10b, step 8: a persistent kernel. Step 7 launches one block per 128 x 256 tile, and an
// SM holds one such block (192 KiB of stages): when a block has multiplied its last k-step, its
// consumers store 128 KiB of C while the tensor cores wait, and the next block on that SM starts
// with an empty ring, waiting for its first TMA boxes. Here the grid is one block per SM, and each
// block walks the tiles t = blockIdx.x, blockIdx.x + gridDim.x, ... The producer does not stop at a
// tile's end: it goes on filling stages with the next tile's k-steps while the consumers store, so
// the next tile's first products find their operands waiting.
//
// The ring's bookkeeping is step 7's with one change: the k-step number that picks the stage and
// the parity (tc::stage_phase, tc::empty_wait) counts on across tiles, so stage and phase continue
// where the last tile left them; both sides count alike.
//
// The order of the tiles is grouped (tc::tile_of, as chapter 10's prefetch step): runs of
// kGroupRows tile rows walked column by column. The ~132 tiles in flight at once then cover about
// 16 tile rows and 8 tile columns (2048 rows of A, 2112 of Bᵀ) instead of step 7's 4 tile rows and
// every tile column (528 of A, all n of Bᵀ), so more of each k-step's boxes come from L2.
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <algorithm>

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

template <typename In>
using Tiles = WgmmaTiles<In, 2, 256>;
constexpr int kStages = 4;
constexpr int kWarpgroup = 128;
constexpr int kConsumers = 2;
constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
constexpr int kConsumerThreads = kConsumers * kWarpgroup;
constexpr RegisterSplit kSplit{40, 232, kConsumers};
constexpr int kGroupRows = 16;

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_persistent(const __grid_constant__ TmaArgs) {
  __trap();
}
#else
//! [persistent_kernel]
template <typename In>
__global__ void __launch_bounds__(kThreads, 1) gemm_persistent(const __grid_constant__ TmaArgs g) {
  using T = Tiles<In>;
  extern __shared__ unsigned char dynamic[];
  const TmaRing<In, kStages, T> ring(dynamic);
  const int steps = tc::tiles_for(g.k, T::BK);
  const tc::TileGrid grid = tc::tile_grid(g.m, g.n, T::BM, T::BN, kGroupRows);
  const int tiles = tc::tile_count(grid);
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
      int it = 0;  // k-steps loaded so far by this block, over all its tiles
      for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const tc::RowCol tile = tc::tile_of(grid, t);
        for (int s = 0; s < steps; ++s, ++it) {
          const tc::StagePhase p = tc::stage_phase(it, kStages);
          const tc::EmptyWait w = tc::empty_wait(it, kStages);
          if (w.wait) mbarrier_wait_parity(ring.empty(p.stage), w.parity);  // k-step it - kStages is multiplied
          tma_load_k_step<In, T>(&g.a, &g.bt, ring.a(p.stage), ring.b(p.stage), ring.full(p.stage), tile.row, tile.col, s);
        }
      }
    }
    return;
  }

  setmaxnreg_inc<kSplit.consumer>();
  const int consumer = static_cast<int>(threadIdx.x) / kWarpgroup - 1;  // 0 or 1: which 64 rows of the tile
  const int thread = static_cast<int>(threadIdx.x) % kWarpgroup;
  const unsigned a_rows = static_cast<unsigned>(consumer * 64 * T::kRowBytes);  // its rows within the A tile
  float acc[T::kAccumulators];  // set by the first k-step's first wgmma (accumulate 0), as step 5
  int it = 0;  // k-steps multiplied so far, counted as the producer counts them
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const tc::RowCol tile = tc::tile_of(grid, t);
    for (int s = 0; s < steps; ++s, ++it) {
      const tc::StagePhase p = tc::stage_phase(it, kStages);
      mbarrier_wait_parity(ring.full(p.stage), p.parity);
      wgmma_k_block_async<In>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage), s > 0);  // a new tile starts from 0
      wgmma_wait_group<1>();  // k-step it - 1's products are done: its stage may be refilled
      if (s > 0) mbarrier_arrive(ring.empty(tc::stage_phase(it - 1, kStages).stage));
    }
    wgmma_wait_group<0>();
    mbarrier_arrive(ring.empty(tc::stage_phase(it - 1, kStages).stage));
    store_wgmma_tile(acc, g.c, g.m, g.n, tile.row * T::BM + consumer * 64, tile.col * T::BN, thread);
  }
}
//! [persistent_kernel]
#endif

/// One block per SM, or per tile where there are fewer tiles.
int persistent_blocks(const TmaArgs& g) {
  int device = 0, sms = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int tiles = tc::tile_count(tc::tile_grid(g.m, g.n, Tiles<float>::BM, Tiles<float>::BN, kGroupRows));
  return std::max(1, std::min(sms, tiles));
}

template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<In, kStages, Tiles<In>>::kDynamicBytes;
  prepare_warp_specialized<gemm_persistent<In>>("gemm_persistent", kSplit, kBytes);
  gemm_persistent<In><<<persistent_blocks(g), kThreads, kBytes, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_persistent");
}

}  // namespace

GemmShape persistent_shape() { return {Tiles<float>::BM, Tiles<float>::BN, kThreads}; }
int persistent_stages() { return kStages; }
void launch_persistent_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_persistent_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
