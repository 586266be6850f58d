// Chapter 10c, step 2: step 1 with a scale per block and its sums promoted to FP32 every 128 of k
// (DeepSeek-V3's report, sec. 3.3.2; DeepGEMM). Step 1 keeps all of k in the wgmma accumulator,
// which the FP8 tensor cores add to with fewer bits than FP32 (the GPU test of the FP8 accumulator
// measures how many), and scales A and B by one factor each, so a block of small values is rounded
// on the scale of the tensor's largest. Here:
//   - A arrives quantised with one scale per 1 x 128 block (a row's 128 values of k), Bᵀ with one
//     per 128 x 128 block, each a power of two (gpgpu::blas::e4m3_block_scale, made on the GPU by
//     10c_quantise_inputs.cu); a k-step is 128 of k, so each k-step is one k-block of scales;
//   - each consumer warpgroup keeps step 1's 64 x 256 of the tile, but multiplies it one column
//     block of scales at a time: per k-step and half, four m64n128k32 wgmma from 0 (scale-d 0 on the
//     first) into 64 registers, loads the next half's scales while they run (its rows' scales of A
//     and the column block's of B: PrefetchedFactors, ordinary loads, three floats per thread and
//     half, which L1 and L2 hold; TMA would add a box and an expected byte count per stage for 512
//     bytes), waits for the products and adds sums · s_a · s_b into that half of 128 FP32 registers
//     (promote) with the scales loaded a half before: loads issued beside the half's own wgmma had
//     only those wgmma to arrive in (PrefetchedFactors says what the profile showed);
//   - registers decide that shape: the 128 promoted sums of 64 x 256 and the 64 of one half's
//     products fit a consumer's 232 (ptxas spills at 208, not at 216), where m64n256's 128 products
//     beside the 128 sums would pass the 255 a thread may have. A 128 x 128 tile (one m64n128 per
//     consumer) would fit too, but per product it reads half as many bytes again from L2 and lands
//     a third more in shared memory; here the tile, the stages, the loads and the clusters are step
//     1's, byte for byte. What the halves cost is reads of shared memory: each reads the stage's A
//     rows again, 96 KiB per stage where step 1's wgmma read 80 (the 128 x 128 tile's rate too);
//   - the promotion needs the half's products, so nothing of this warpgroup stays in flight while it
//     promotes (wait_group 0); the two consumers take turns at issuing (ConsumerTurns: named
//     barriers), so that the tensor cores run the other's half meanwhile: without turns both issue
//     together, finish together and promote together, and the tensor cores wait for both;
//   - the stage is released once both halves have read it;
//   - the epilogue stores the FP32 sums as they are (the scales are in them), in FP32 or BF16.
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <algorithm>

#include "cluster.hpp"
#include "cluster_stages.hpp"
#include "fp8_block_scales.hpp"
#include "fp8_epilogue.hpp"
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

using Tiles = WgmmaTiles<Fp8, 2, 256>;  // step 1's 128 x 256, k-steps of 128 E4M3 values: one k-block of scales each
constexpr int kHalf = Tiles::BN / 2;   // the columns of one m64n128 wgmma: one column block of B's scales
constexpr unsigned kHalfBytes = kHalf * Tiles::kRowBytes;  // their rows of the Bᵀ tile
static_assert(Tiles::BK == 128 && kHalf == 128, "a k-step per k-block of scales (gpgpu::blas::kFp8BlockK), a half per column block of B");
constexpr int kStages = 4;
constexpr int kWarpgroup = 128;
constexpr int kConsumers = 2;
constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
constexpr int kConsumerWarps = kConsumers * kWarpgroup / 32;
constexpr RegisterSplit kSplit{40, 232, kConsumers};  // step 1's: the consumers need more than 208
constexpr int kGroupRows = 8;  // pairs of tile rows: 16 tile rows per group, as 10b's step 9
constexpr int kClusterSize = 2;

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename Out>
__global__ void gemm_fp8_block(const __grid_constant__ TmaArgs, const Fp8Epilogue<Out>) {
  __trap();
}
#else
//! [fp8_block_kernel]
template <typename Out>
__global__ void __launch_bounds__(kThreads, 1) gemm_fp8_block(const __grid_constant__ TmaArgs g, const Fp8Epilogue<Out> e) {
  using T = Tiles;
  extern __shared__ unsigned char dynamic[];
  const TmaRing<Fp8, kStages, T> ring(dynamic);
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
          tma_load_k_step_shared_b<Fp8, Tiles, kClusterSize>(g, ring.a(p.stage), ring.b(p.stage), ring.full(p.stage),
                                       pair.row * kClusterSize + static_cast<int>(rank), pair.col, s, rank);
        }
      }
    }
  } else {
    setmaxnreg_inc<kSplit.consumer>();
    const int consumer = static_cast<int>(threadIdx.x) / kWarpgroup - 1;  // 0 or 1: which 64 rows of the tile
    const int thread = static_cast<int>(threadIdx.x) % kWarpgroup;
    const unsigned a_rows = static_cast<unsigned>(consumer * 64 * T::kRowBytes);  // its rows within the A tile
    const int n_blocks = tc::tiles_for(g.n, kHalf);  // B's scales per k-block
    const ConsumerTurns turns(consumer);
    float acc[T::kAccumulators / 2];  // one half's k-step sums, from 0 at every half (accumulate 0)
    float sums[T::kAccumulators];     // the promoted sums of all 64 x 256: FP32 on the CUDA cores
    int it = 0;  // k-steps multiplied so far, counted as the producer counts them
    for (int t = cluster; t < count; t += clusters) {
      const tc::RowCol pair = tc::tile_of(pairs, t);
      const int tile_m = pair.row * kClusterSize + static_cast<int>(rank);
      const int row0 = tile_m * T::BM + consumer * 64;
#pragma unroll
      for (float& x : sums) x = 0;
      PrefetchedFactors ahead(e, g.m, n_blocks, steps, 2 * pair.col, row0, thread);  // the first half's scales, loaded now
      for (int s = 0; s < steps; ++s, ++it) {
        const tc::StagePhase p = tc::stage_phase(it, kStages);
        mbarrier_wait_parity(ring.full(p.stage), p.parity);
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // the tile's two column blocks of scales, one m64n128 each
          turns.wait();  // after the other consumer's last wgmma: they run while this one promotes
          wgmma_k_block_async<Fp8>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage) + h * kHalfBytes, 0);  // four k32, from 0
          turns.pass();
          const RowFactors f = ahead.take(e, s, h);  // loaded a half ago; the next half's loads run with these wgmma
          wgmma_wait_group<0>();  // the half's products are done: its sums may be read
          if (h == 1) release_to_cluster<kClusterSize>(ring.empty(p.stage));  // both halves have read the stage
          promote(sums, acc, f, h);
        }
      }
      store_scaled_tile(sums, e, 1.0f, g.m, g.n, row0, pair.col * T::BN, thread);  // the scales are in the sums
    }
    turns.finish();
  }
  cluster_sync();  // no block leaves while its peer may still multicast into it or arrive on its barriers
}
//! [fp8_block_kernel]
#endif

/// The grid: as many clusters as the GPU holds at once, or one per pair of tiles where there are fewer.
template <typename Out>
void launch(const TmaArgs& g, const Fp8Epilogue<Out>& e, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<Fp8, kStages, Tiles>::kDynamicBytes;
  prepare_warp_specialized<gemm_fp8_block<Out>>("gemm_fp8_block", kSplit, kBytes);
  ClusterLaunch<kClusterSize> launch(kThreads, kBytes, stream);
  const int pairs = tc::tile_count(tc::tile_grid(g.m, g.n, kClusterSize * Tiles::BM, Tiles::BN, kGroupRows));
  const int clusters = std::max(1, std::min(launch.most<gemm_fp8_block<Out>>("gemm_fp8_block"), pairs));
  launch.config.gridDim = dim3(static_cast<unsigned>(kClusterSize * clusters));
  GPGPU_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, gemm_fp8_block<Out>, g, e));
}

}  // namespace

GemmShape fp8_block_shape() { return {Tiles::BM, Tiles::BN, kThreads}; }
int fp8_block_stages() { return kStages; }
void launch_fp8_block(const TmaArgs& g, const Fp8Epilogue<float>& e, cudaStream_t stream) { launch<float>(g, e, stream); }
void launch_fp8_block(const TmaArgs& g, const Fp8Epilogue<Bf16>& e, cudaStream_t stream) { launch<Bf16>(g, e, stream); }

}  // namespace gpgpu::blas::cuda
