// Chapter 10b, step 11: step 9 with C written through shared memory by TMA stores, in BF16 or FP32.
// In steps 1-10 (and chapter 10c's steps) each consumer thread stores its own accumulator pairs to global memory: 64 store
// instructions per thread and tile for m64n256 (8 bytes each, FP32), in the warp's fragment pattern
// (a warp's store covers 8 rows x 32 bytes: eight sectors of eight lines), issued while the tensor
// cores wait for the next tile's first wgmma. Here each consumer warpgroup puts its 64 x 256 tile
// into a staging buffer of its own (stmatrix for BF16: 16 instructions per thread; st.shared.v2 for
// FP32), laid out as the boxes of C's tensor map, and one thread asks TMA to write the boxes out:
// whole 128-byte lines of C, and no thread waits for them. The consumers start the next tile's wgmma
// at once; the TMA engine reads the buffer and writes C meanwhile.
//
// Where C's tile goes in shared memory. A 128 x 256 tile is 64 KiB in BF16 and 128 KiB in FP32; step
// 9's four stages are 192 KiB of the 227 KiB a block may have. The stages cannot hold C: the
// producer is already filling them with the next tile's k-steps (which is the overlap this step is
// about). So C gets a buffer of its own, 32 KiB per consumer warpgroup (64 KiB), and the ring gives
// up a stage: 3 x 48 KiB + 64 KiB = 208 KiB of buffers (210 KiB with the barriers and alignment).
// In BF16 the buffer holds the warpgroup's whole 64 x 256 tile, stored in one pass; in FP32 it
// holds half of it, so a tile goes in two passes, the second waiting until the engine has read the
// first (cp.async.bulk.wait_group.read). With three stages each load still gets about two k-steps
// (2 x 1024 clocks of m64n256 products per consumer) from its stage's release to its use, more than
// an L2 round trip. The alternative, four stages and 16 KiB per warpgroup, keeps step 9's
// ring and stores BF16 in two passes, FP32 in four (kStages and kStagingBytes below; the chapter's
// README asks which is faster).
//
// The order of a pass (tile_store.hpp, store_tile_by_tma): the thread that issued the last store
// waits until the engine has read the buffer, and the warpgroup's named barrier releases the others;
// every thread writes its accumulators (rounded to BF16) into the buffer, then fences its writes for
// the async proxy (fence.proxy.async.shared::cta: TMA reads through it); a second barrier; one thread
// issues a cp.async.bulk.tensor store per box and commits them as one bulk group. Before the block
// exits, that thread waits for its last group to complete (the buffer must outlive the engine's reads).
//
// Edge tiles: C's tensor map has C's m and n, and TMA writes only the elements of a box inside them,
// so partial tiles need no bounds in the kernel; boxes wholly outside C (a cluster's lower tile below
// an odd number of tile rows, the columns past n) are not issued. C's rows are ldc elements apart,
// n rounded up to 16 bytes (a tensor map's row pitch): the host code's C has that pitch.
//
// Everything else (the ring, the producer, the cluster's multicast of Bᵀ, the tile order) is step 9's.
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <algorithm>

#include "cluster.hpp"
#include "cluster_stages.hpp"
#include "gpgpu/cuda/check.hpp"
#include "pipeline_ring.hpp"
#include "tensor_core_layout.hpp"
#include "tile_store.hpp"
#include "tma.hpp"
#include "tma_stages.hpp"
#include "tma_store.hpp"
#include "warp_specialization.hpp"
#include "wgmma.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [tma_store_config]
using Tiles = WgmmaTiles<Bf16, 2, 256>;
constexpr int kStages = 3;                // a stage's 48 KiB go to C's buffers
constexpr int kStagingBytes = 32 * 1024;  // per consumer warpgroup: its 64 x 256 tile in BF16, half of it in FP32
constexpr int kWarpgroup = 128;
constexpr int kConsumers = 2;
constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
constexpr int kConsumerWarps = kConsumers * kWarpgroup / 32;
constexpr RegisterSplit kSplit{40, 232, kConsumers};
constexpr int kGroupRows = 8;  // pairs of tile rows: 16 tile rows per group, as step 9's
constexpr int kClusterSize = 2;
using Ring = TmaRing<Bf16, kStages, Tiles>;
constexpr int kStagingOffset = tc::staged_ring(Ring::kLayout, kConsumers * kStagingBytes).staging_offset;
constexpr int kDynamicBytes = tc::staged_ring(Ring::kLayout, kConsumers * kStagingBytes).dynamic_bytes;
static_assert(kDynamicBytes <= tc::kMaxSharedPerBlockSm90, "the ring and C's buffers must fit a block's 227 KiB");
//! [tma_store_config]

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename Out>
__global__ void gemm_tma_store(const __grid_constant__ TmaArgs, const __grid_constant__ CUtensorMap) {
  __trap();
}
#else
//! [tma_store_kernel]
template <typename Out>
__global__ void __launch_bounds__(kThreads, 1) gemm_tma_store(const __grid_constant__ TmaArgs g, const __grid_constant__ CUtensorMap c_map) {
  using T = Tiles;
  extern __shared__ unsigned char dynamic[];
  const Ring ring(dynamic);
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
          tma_load_k_step_shared_b<Bf16, Tiles, kClusterSize>(g, ring.a(p.stage), ring.b(p.stage), ring.full(p.stage),
                                       pair.row * kClusterSize + static_cast<int>(rank), pair.col, s, rank);
        }
      }
    }
  } else {
    setmaxnreg_inc<kSplit.consumer>();
    const int consumer = static_cast<int>(threadIdx.x) / kWarpgroup - 1;  // 0 or 1: which 64 rows of the tile
    const int thread = static_cast<int>(threadIdx.x) % kWarpgroup;
    const unsigned a_rows = static_cast<unsigned>(consumer * 64 * T::kRowBytes);  // its rows within the A tile
    const unsigned staging = ring.base + static_cast<unsigned>(kStagingOffset + consumer * kStagingBytes);  // its C buffer
    float acc[T::kAccumulators];  // set by the first k-step's first wgmma (accumulate 0), as step 5
    int it = 0;  // k-steps multiplied so far, counted as the producer counts them
    for (int t = cluster; t < count; t += clusters) {
      const tc::RowCol pair = tc::tile_of(pairs, t);
      const int tile_m = pair.row * kClusterSize + static_cast<int>(rank);
      for (int s = 0; s < steps; ++s, ++it) {
        const tc::StagePhase p = tc::stage_phase(it, kStages);
        mbarrier_wait_parity(ring.full(p.stage), p.parity);
        wgmma_k_block_async<Bf16>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage), s > 0);  // a new tile starts from 0
        wgmma_wait_group<1>();  // k-step it - 1's products are done: its stage may be refilled
        if (s > 0) release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      }
      wgmma_wait_group<0>();
      release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      store_tile_by_tma<Out, kStagingBytes>(acc, staging, &c_map, g.m, g.n, tile_m * T::BM + consumer * 64, pair.col * T::BN,
                                            1 + consumer, thread);  // issued, not waited for
    }
    if (thread == 0) bulk_wait_group<0>();  // the last tile's boxes are written before the buffer goes
  }
  cluster_sync();  // no block leaves while its peer may still multicast into it or arrive on its barriers
}
//! [tma_store_kernel]
#endif

/// The grid: as many clusters as the GPU holds at once, or one per pair of tiles where there are fewer.
/// Even rounds (`even`): the fewest clusters that still take that many rounds of tiles. At 8192³ the
/// GPU holds 66 clusters and 1024 pairs of tiles take 16 rounds either way; with 64 each round
/// covers whole groups of the grouped order (8 x 8 pairs), where with 66 some rounds straddle two
/// groups (twice the panels of A from DRAM) and every full round spans 9 columns of B, not 8.
template <typename Out, bool kEven>
void launch(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream) {
  prepare_warp_specialized<gemm_tma_store<Out>>("gemm_tma_store", kSplit, kDynamicBytes);
  ClusterLaunch<kClusterSize> launch(kThreads, kDynamicBytes, stream);
  const int pairs = tc::tile_count(tc::tile_grid(g.m, g.n, kClusterSize * Tiles::BM, Tiles::BN, kGroupRows));
  int clusters = std::max(1, std::min(launch.most<gemm_tma_store<Out>>("gemm_tma_store"), pairs));
  if constexpr (kEven) clusters = tc::tiles_for(pairs, tc::tiles_for(pairs, clusters));
  launch.config.gridDim = dim3(static_cast<unsigned>(kClusterSize * clusters));
  GPGPU_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, gemm_tma_store<Out>, g, c_map));
}

}  // namespace

GemmShape tma_store_shape() { return {Tiles::BM, Tiles::BN, kThreads}; }
int tma_store_stages() { return kStages; }
void launch_tma_store_bf16(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream) { launch<float, false>(g, c_map, stream); }
void launch_tma_store_bf16_bf16c(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream) { launch<Bf16, false>(g, c_map, stream); }
void launch_tma_store_bf16_bf16c_even(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream) {
  launch<Bf16, true>(g, c_map, stream);
}

}  // namespace gpgpu::blas::cuda
