// Chapter 10b, step 10: stream-K for the last waves. Step 9's clusters walk the pairs of tiles in
// rounds; at 8192³ in BF16 there are 1024 pairs for 66 clusters, 15.5 rounds, and in the sixteenth
// half the clusters have nothing to do: 3% of the time, as the last 0.5 of a round costs a whole
// one. Here the tiles of all rounds but the last two go whole, as in step 9, and the k-steps of the
// rest are dealt out in equal ranges, one per cluster (tc::stream_k_plan, tc::next_piece: the plan
// and its CPU test). A range may begin in the middle of one tile and end in the middle of another,
// so a tile of that part may be cut in two between two clusters: the "tail" (its last k-steps), the
// first piece of a cluster's range, and the "head" (its first k-steps), the last piece of the
// cluster with the next number. The tail's consumers store their partial sums to C and raise a flag
// in global memory; the head's consumers, at the end of their range, wait for the flag (long
// raised by then), and add their sums to C's.
//
// What changes from step 9:
//   - both sides walk pieces (a tile and a range of its k-steps) instead of tile numbers, and a
//     piece's first k-step, not k-step 0, starts the accumulators from zero;
//   - the epilogue: store (a whole tile), store and raise the flag (a tail), or wait and add (a head);
//   - the flags: one per cut tile, block of the cluster and consumer warpgroup, in a global array
//     that starts at zero and that each head lowers again after its wait, ready for the next call.
//     The array belongs to the kernel, so two products at once on one device would share it: the
//     chapter multiplies on one stream.
// A head waits for a tail on another cluster: the kernel counts on every cluster of the grid running
// at once, as the grid (one cluster per pair of SMs that can hold one) is sized for. The tail's
// cluster has the lower number, so a GPU that started clusters in order would not leave a head
// waiting on a cluster it had not started.
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <algorithm>
#include <stdexcept>

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
constexpr int kFlags = 4096;   // cut tiles (fewer than 2 x clusters) x blocks per cluster x consumers

/// One flag per cut tile, block of its cluster and consumer warpgroup: 1 from the tail's store of
/// its partial sums to the head's wait, 0 otherwise (zero when the program loads the kernel).
__device__ unsigned partial_flags[kFlags];

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename In>
__global__ void gemm_stream_k(const __grid_constant__ TmaArgs) {
  __trap();
}
#else
//! [partial_flags]
/// The flag of a cut tile's part in block `rank` of its cluster, consumer warpgroup `consumer`.
__device__ __forceinline__ unsigned* partial_flag(const tc::StreamK& plan, const tc::Piece& piece, unsigned rank, int consumer) {
  return partial_flags + (tc::cut_index(plan, piece) * kClusterSize + static_cast<int>(rank)) * kConsumers + consumer;
}

/// A tail's end: every thread of the consumer warpgroup (`thread` 0..127 of warpgroup `consumer`)
/// has stored its partial sums; they are made visible to the GPU, then the flag is raised.
__device__ __forceinline__ void publish_partial(unsigned* flag, int consumer, int thread) {
  __threadfence();                               // this thread's stores, visible GPU-wide ...
  named_barrier_sync(1 + consumer, kWarpgroup);  // ... for every thread of the warpgroup
  if (thread == 0) asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(1u) : "memory");
}

/// A head's end, before it adds its sums: one thread waits for the tail's flag (acquiring what the
/// tail published) and lowers it; the barrier then orders the warpgroup's additions after the wait.
__device__ __forceinline__ void wait_for_partial(unsigned* flag, int consumer, int thread) {
  if (thread == 0) {
    unsigned raised = 0;
    for (;;) {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(raised) : "l"(flag) : "memory");
      if (raised != 0) break;
      __nanosleep(100);
    }
    *flag = 0;  // the flag's only reader: the next raise is a later product's
  }
  named_barrier_sync(1 + consumer, kWarpgroup);
}
//! [partial_flags]

//! [stream_k_kernel]
template <typename In>
__global__ void __launch_bounds__(kThreads, 1) gemm_stream_k(const __grid_constant__ TmaArgs g) {
  using T = Tiles<In>;
  extern __shared__ unsigned char dynamic[];
  const TmaRing<In, kStages, T> ring(dynamic);
  const unsigned rank = cluster_rank();
  const int cluster = static_cast<int>(blockIdx.x) / kClusterSize, clusters = static_cast<int>(gridDim.x) / kClusterSize;
  const int steps = tc::tiles_for(g.k, T::BK);
  const tc::TileGrid pairs = tc::tile_grid(g.m, g.n, kClusterSize * T::BM, T::BN, kGroupRows);
  const tc::StreamK plan = tc::stream_k_plan(tc::tile_count(pairs), clusters, steps);
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
      int it = 0;  // k-steps loaded so far by this block, over all its pieces
      tc::WorkCursor work = tc::first_work(plan, cluster);
      for (tc::Piece piece{}; tc::next_piece(plan, work, piece);) {
        const tc::RowCol pair = tc::tile_of(pairs, piece.tile);
        for (int s = piece.k_begin; s < piece.k_end; ++s, ++it) {
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
    tc::WorkCursor work = tc::first_work(plan, cluster);
    for (tc::Piece piece{}; tc::next_piece(plan, work, piece);) {
      const tc::RowCol pair = tc::tile_of(pairs, piece.tile);
      const int tile_m = pair.row * kClusterSize + static_cast<int>(rank);
      for (int s = piece.k_begin; s < piece.k_end; ++s, ++it) {
        const tc::StagePhase p = tc::stage_phase(it, kStages);
        mbarrier_wait_parity(ring.full(p.stage), p.parity);
        wgmma_k_block_async<In>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage), s > piece.k_begin);  // a new piece starts from 0
        wgmma_wait_group<1>();  // k-step it - 1's products are done: its stage may be refilled
        if (s > piece.k_begin) release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      }
      wgmma_wait_group<0>();
      release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      const int row0 = tile_m * T::BM + consumer * 64, col0 = pair.col * T::BN;
      if (piece.k_end < steps) {  // a head: the tail's sums are in C
        wait_for_partial(partial_flag(plan, piece, rank, consumer), consumer, thread);
        store_wgmma_tile<true>(acc, g.c, g.m, g.n, row0, col0, thread);
      } else {
        store_wgmma_tile(acc, g.c, g.m, g.n, row0, col0, thread);
        if (piece.k_begin > 0) publish_partial(partial_flag(plan, piece, rank, consumer), consumer, thread);  // a tail
      }
    }
  }
  cluster_sync();  // no block leaves while its peer may still multicast into it or arrive on its barriers
}
//! [stream_k_kernel]
#endif

/// The grid: as many clusters as the GPU holds at once, or one per pair of tiles where there are fewer.
template <typename In>
void launch(const TmaArgs& g, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<In, kStages, Tiles<In>>::kDynamicBytes;
  prepare_warp_specialized<gemm_stream_k<In>>("gemm_stream_k", kSplit, kBytes);
  ClusterLaunch<kClusterSize> launch(kThreads, kBytes, stream);
  const int pairs = tc::tile_count(tc::tile_grid(g.m, g.n, kClusterSize * Tiles<In>::BM, Tiles<In>::BN, kGroupRows));
  const int clusters = std::max(1, std::min(launch.most<gemm_stream_k<In>>("gemm_stream_k"), pairs));
  if ((2 * clusters - 1) * kClusterSize * kConsumers > kFlags) throw std::length_error("gemm_stream_k: more clusters than flags");
  launch.config.gridDim = dim3(static_cast<unsigned>(kClusterSize * clusters));
  GPGPU_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, gemm_stream_k<In>, g));
}

}  // namespace

GemmShape stream_k_shape() { return {Tiles<float>::BM, Tiles<float>::BN, kThreads}; }
int stream_k_stages() { return kStages; }
void launch_stream_k_tf32(const TmaArgs& g, cudaStream_t stream) { launch<float>(g, stream); }
void launch_stream_k_bf16(const TmaArgs& g, cudaStream_t stream) { launch<Bf16>(g, stream); }

}  // namespace gpgpu::blas::cuda
