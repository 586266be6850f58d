// Chapter 10b, step 9: clusters of two blocks share their Bᵀ tile. In step 8 every block brings its
// own 16 KiB of A and 32 KiB of Bᵀ per k-step from L2. Two blocks whose tiles lie one above the other
// (tile rows 2p and 2p + 1 of the same tile column) need the same Bᵀ tile. Here they run as a
// cluster of two (launched with cudaLaunchAttributeClusterDimension; the hardware places both on
// one GPC and lets each address the other's shared memory), and each producer asks TMA for its own
// A boxes and for half of the Bᵀ boxes, multicast: each Bᵀ box lands in both blocks' stages
// (cluster_stages.hpp, tma_load_k_step_shared_b). L2 serves 32 KiB per block and k-step instead of 48.
//
// What that changes in the protocol of step 8:
//   - a stage is refilled by both producers (each writes half of Bᵀ into both blocks), so it is
//     free only when the consumers of both blocks have released it: each consumer warp arrives on
//     the "empty" barrier of both blocks (mbarrier_arrive_cluster), which count 2 x 8 warps;
//   - a block's "full" barrier receives bytes from both producers; its own producer still announces
//     all 48 KiB (expect_tx), and the peer's bytes may arrive before that announcement (the
//     transaction count goes below zero until then, and the phase cannot complete while the
//     producer's own arrival is missing);
//   - a barrier of the whole cluster after the mbarriers are initialised (no block may signal a
//     peer's barrier before it exists) and before the blocks exit (no block may leave while its peer
//     can still write into its shared memory), so the producer warps no longer leave early;
//   - the grid is one cluster per pair of SMs that can hold one (cudaOccupancyMaxActiveClusters),
//     and a cluster walks pairs of tile rows in the grouped order; where the tile rows are odd in
//     number, the last pair's lower tile lies below C: its A boxes arrive as zeros and its stores
//     are skipped, but its producer still brings its half of Bᵀ.
// Consumer warps now arrive once per warp (lane 0, after __syncwarp) instead of once per thread: 16
// arrivals per stage across the cluster instead of 512.
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <algorithm>

#include "cluster.hpp"
#include "cluster_stages.hpp"
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
constexpr int kConsumerWarps = kConsumers * kWarpgroup / 32;
constexpr RegisterSplit kSplit{40, 232, kConsumers};
constexpr int kGroupRows = 8;  // pairs of tile rows: 16 tile rows per group, as step 8's
constexpr int kClusterSize = 2;

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_cluster(const __grid_constant__ TmaArgs) {
  __trap();
}
#else
//! [cluster_kernel]
template <typename In>
__global__ void __launch_bounds__(kThreads, 1) gemm_cluster(const __grid_constant__ TmaArgs g) {
  using T = Tiles<In>;
  extern __shared__ unsigned char dynamic[];
  const TmaRing<In, kStages, T> ring(dynamic);
  const unsigned rank = cluster_rank();
  const int cluster = static_cast<int>(blockIdx.x) / kClusterSize, clusters = static_cast<int>(gridDim.x) / kClusterSize;
  const int steps = tc::tiles_for(g.k, T::BK);
  const tc::TileGrid pairs = tc::tile_grid(g.m, g.n, kClusterSize * T::BM, T::BN, kGroupRows);
  const int count = tc::tile_count(pairs);
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbarrier_init(ring.full(i), 1);                  // the producer's arrival (with TMA's bytes)
      mbarrier_init(ring.empty(i), kClusterSize * kConsumerWarps);  // every consumer warp of both blocks
    }
    fence_mbarrier_init();
  }
  cluster_sync();

  if (threadIdx.x < kWarpgroup) {  // the producer (whole warps: the branch is warp-uniform)
    setmaxnreg_dec<kSplit.producer>();
    if (threadIdx.x == 0) {
      int it = 0;  // k-steps loaded so far by this block, over all its tiles
      for (int t = cluster; t < count; t += clusters) {
        const tc::RowCol pair = tc::tile_of(pairs, t);
        for (int s = 0; s < steps; ++s, ++it) {
          const tc::StagePhase p = tc::stage_phase(it, kStages);
          const tc::EmptyWait w = tc::empty_wait(it, kStages);
          if (w.wait) mbarrier_wait_parity(ring.empty(p.stage), w.parity);  // k-step it - kStages is multiplied
          tma_load_k_step_shared_b<In, Tiles<In>, kClusterSize>(g, ring.a(p.stage), ring.b(p.stage), ring.full(p.stage),
                                       pair.row * kClusterSize + static_cast<int>(rank), pair.col, s, rank);
        }
      }
    }
  } else {
    setmaxnreg_inc<kSplit.consumer>();
    const int consumer = static_cast<int>(threadIdx.x) / kWarpgroup - 1;  // 0 or 1: which 64 rows of the tile
    const int thread = static_cast<int>(threadIdx.x) % kWarpgroup;
    const unsigned a_rows = static_cast<unsigned>(consumer * 64 * T::kRowBytes);  // its rows within the A tile
    float acc[T::kAccumulators];  // set by the first k-step's first wgmma (accumulate 0), as step 5
    int it = 0;  // k-steps multiplied so far, counted as the producer counts them
    for (int t = cluster; t < count; t += clusters) {
      const tc::RowCol pair = tc::tile_of(pairs, t);
      const int tile_m = pair.row * kClusterSize + static_cast<int>(rank);
      for (int s = 0; s < steps; ++s, ++it) {
        const tc::StagePhase p = tc::stage_phase(it, kStages);
        mbarrier_wait_parity(ring.full(p.stage), p.parity);
        wgmma_k_block_async<In>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage), s > 0);  // a new tile starts from 0
        wgmma_wait_group<1>();  // k-step it - 1's products are done: its stage may be refilled
        if (s > 0) release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      }
      wgmma_wait_group<0>();
      release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      store_wgmma_tile(acc, g.c, g.m, g.n, tile_m * T::BM + consumer * 64, pair.col * T::BN, thread);
    }
  }
  cluster_sync();  // no block leaves while its peer may still multicast into it or arrive on its barriers
}
//! [cluster_kernel]
#endif

/// The grid: as many clusters as the GPU holds at once, or one per pair of tiles where there are fewer.
//! [cluster_launch]
template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<In, kStages, Tiles<In>>::kDynamicBytes;
  prepare_warp_specialized<gemm_cluster<In>>("gemm_cluster", kSplit, kBytes);
  ClusterLaunch<kClusterSize> launch(kThreads, kBytes, stream);
  const int pairs = tc::tile_count(tc::tile_grid(g.m, g.n, kClusterSize * Tiles<In>::BM, Tiles<In>::BN, kGroupRows));
  const int clusters = std::max(1, std::min(launch.most<gemm_cluster<In>>("gemm_cluster"), pairs));
  launch.config.gridDim = dim3(static_cast<unsigned>(kClusterSize * clusters));
  GPGPU_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, gemm_cluster<In>, g));
}
//! [cluster_launch]

}  // namespace

GemmShape cluster_shape() { return {Tiles<float>::BM, Tiles<float>::BN, kThreads}; }
int cluster_stages() { return kStages; }
void launch_cluster_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_cluster_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
