// Chapter 10c, step 1: chapter 10b's step 9 clusters on FP8 inputs. Hopper's tensor cores multiply E4M3 values
// (one byte: 1 sign, 4 exponent, 3 mantissa bits) at twice BF16's rate: wgmma m64nNk32 takes 32
// values of k where the BF16 form takes 16, in the same 32 bytes of each operand row and the same
// time. Everything that moves bytes is 10b's step 9, unchanged:
//   - A (m x k) and Bᵀ (n x k) arrive quantised (chapter's Fp8Gemm: e4m3(x / s) with one scale s per
//     tensor, Bᵀ transposed, rows padded to 16 bytes), both K-major: the FP8 wgmma has no transpose
//     operands, as TF32 has none;
//   - their tensor maps are 10b's step 4's with one-byte elements (CU_TENSOR_MAP_DATA_TYPE_UINT8: TMA moves
//     bytes and never looks at them): a box row is 128 bytes = 128 values of k, so a k-step is 128
//     and wgmma_k_block_async issues four k32 wgmma per stage where it issued four k16 for BF16;
//   - the descriptors are the same bytes: 128-byte rows with the 128-byte swizzle, 8-row atoms
//     1024 bytes apart, the k-slice chosen by the start address (tc::kmajor_sw128_descriptor);
//   - a stage holds the same 48 KiB (128 + 256 rows of 128 bytes), now twice the products.
// What changes is the epilogue: the sums are of the quantised values, so each is multiplied by
// s_a · s_b (device scalars written by the quantiser, read once per thread) before it is stored, in
// FP32 or rounded to BF16 (fp8_epilogue.hpp), into C's rows of ldc elements.
//
// The sums stay in the wgmma accumulator for the whole of k: FP32 registers, but the FP8 tensor
// cores are taken to keep fewer bits when they add a k-step's products to them (the FP8 bound,
// problems/blas gemm.cpp). Step 2 promotes partial sums to FP32 instead.
//
// Built for sm_90a only; the chapter refuses any GPU but compute capability 9.0.
#include "tensor_core_launchers.hpp"

#include <algorithm>

#include "cluster.hpp"
#include "cluster_stages.hpp"
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

using Tiles = WgmmaTiles<Fp8, 2, 256>;  // 128 x 256, k-steps of 128 E4M3 values (one 128-byte row)
constexpr int kStages = 4;
constexpr int kWarpgroup = 128;
constexpr int kConsumers = 2;
constexpr int kThreads = (1 + kConsumers) * kWarpgroup;
constexpr int kConsumerWarps = kConsumers * kWarpgroup / 32;
constexpr RegisterSplit kSplit{40, 232, kConsumers};
constexpr int kGroupRows = 8;  // pairs of tile rows: 16 tile rows per group, as 10b's step 9
constexpr int kClusterSize = 2;

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename Out>
__global__ void gemm_fp8(const __grid_constant__ TmaArgs, const Fp8Epilogue<Out>) {
  __trap();
}
#else
//! [fp8_kernel]
template <typename Out>
__global__ void __launch_bounds__(kThreads, 1) gemm_fp8(const __grid_constant__ TmaArgs g, const Fp8Epilogue<Out> e) {
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
    const float scale = fp8_scale(e);  // s_a · s_b
    float acc[T::kAccumulators];  // set by the first k-step's first wgmma (accumulate 0), as 10b's step 5
    int it = 0;  // k-steps multiplied so far, counted as the producer counts them
    for (int t = cluster; t < count; t += clusters) {
      const tc::RowCol pair = tc::tile_of(pairs, t);
      const int tile_m = pair.row * kClusterSize + static_cast<int>(rank);
      for (int s = 0; s < steps; ++s, ++it) {
        const tc::StagePhase p = tc::stage_phase(it, kStages);
        mbarrier_wait_parity(ring.full(p.stage), p.parity);
        wgmma_k_block_async<Fp8>(acc, ring.a(p.stage) + a_rows, ring.b(p.stage), s > 0);  // four k32 wgmma; a new tile starts from 0
        wgmma_wait_group<1>();  // k-step it - 1's products are done: its stage may be refilled
        if (s > 0) release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      }
      wgmma_wait_group<0>();
      release_to_cluster<kClusterSize>(ring.empty(tc::stage_phase(it - 1, kStages).stage));
      store_scaled_tile(acc, e, scale, g.m, g.n, tile_m * T::BM + consumer * 64, pair.col * T::BN, thread);
    }
  }
  cluster_sync();  // no block leaves while its peer may still multicast into it or arrive on its barriers
}
//! [fp8_kernel]
#endif

/// The grid: as many clusters as the GPU holds at once, or one per pair of tiles where there are fewer.
template <typename Out>
void launch(const TmaArgs& g, const Fp8Epilogue<Out>& e, cudaStream_t stream) {
  constexpr int kBytes = TmaRing<Fp8, kStages, Tiles>::kDynamicBytes;
  prepare_warp_specialized<gemm_fp8<Out>>("gemm_fp8", kSplit, kBytes);
  ClusterLaunch<kClusterSize> launch(kThreads, kBytes, stream);
  const int pairs = tc::tile_count(tc::tile_grid(g.m, g.n, kClusterSize * Tiles::BM, Tiles::BN, kGroupRows));
  const int clusters = std::max(1, std::min(launch.most<gemm_fp8<Out>>("gemm_fp8"), pairs));
  launch.config.gridDim = dim3(static_cast<unsigned>(kClusterSize * clusters));
  GPGPU_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, gemm_fp8<Out>, g, e));
}

}  // namespace

GemmShape fp8_tensor_shape() { return {Tiles::BM, Tiles::BN, kThreads}; }
int fp8_tensor_stages() { return kStages; }
void launch_fp8_tensor(const TmaArgs& g, const Fp8Epilogue<float>& e, cudaStream_t stream) { launch<float>(g, e, stream); }
void launch_fp8_tensor(const TmaArgs& g, const Fp8Epilogue<Bf16>& e, cudaStream_t stream) { launch<Bf16>(g, e, stream); }

}  // namespace gpgpu::blas::cuda
