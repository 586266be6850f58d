/// @file tma_stages.hpp
/// @brief What chapter 10b's TMA steps share (4: 10b_04_tma.cu, 5: 10b_05_pipeline.cu, 6:
/// 10b_06_warp_specialized.cu): one k-step's boxes of A and Bᵀ requested into one stage, the ring of
/// stages in dynamic shared memory (5, 6: tc::ring_layout, tested on the CPU), and the launch
/// geometry with the opt-in to more than 48 KiB of dynamic shared memory.
#pragma once
#include <stdexcept>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "mma_sync.hpp"  // shared_address
#include "pipeline_ring.hpp"
#include "tensor_core_launchers.hpp"
#include "tensor_core_layout.hpp"
#include "tma.hpp"
#include "warp_specialization.hpp"
#include "wgmma_tile.hpp"

namespace gpgpu::blas::cuda {

#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// By one thread: k-step `k_step` of the block's tile (tile_m, tile_n) requested, A's boxes into
/// shared `as` and Bᵀ's into `bs`, all completing on `bar`, which is told to expect every byte of
/// them (partial boxes, and boxes wholly outside the matrix, included: TMA counts the zeros it
/// fills) with this thread's arrival. A box is 64 rows (tma_box_rows); a taller tile (step 7) takes
/// several, one under the other: 64 rows of 128 bytes are 8 whole 1024-byte swizzle periods, so
/// the boxes side by side are the layout one tall box would write.
//! [tma_load_k_step]
template <typename In, typename Tiles = WgmmaTiles<In>>
__device__ __forceinline__ void tma_load_k_step(const CUtensorMap* a_map, const CUtensorMap* bt_map, unsigned as, unsigned bs,
                                                unsigned bar, int tile_m, int tile_n, int k_step) {
  constexpr int kBytes = static_cast<int>(sizeof(In));
  constexpr int kBoxRows = WgmmaTiles<In>::BM, kBoxBytes = kBoxRows * Tiles::kRowBytes;
  static_assert(Tiles::BM % kBoxRows == 0 && Tiles::BN % kBoxRows == 0, "whole boxes per tile");
  mbarrier_arrive_expect_tx(bar, tc::box_bytes(Tiles::BK, Tiles::BM, kBytes) + tc::box_bytes(Tiles::BK, Tiles::BN, kBytes));
#pragma unroll
  for (int i = 0; i < Tiles::BM / kBoxRows; ++i) {
    const tc::BoxCoord a = tc::a_box(tile_m * (Tiles::BM / kBoxRows) + i, k_step, kBoxRows, Tiles::BK);
    tma_load_2d(as + i * kBoxBytes, a_map, a.inner, a.outer, bar);
  }
#pragma unroll
  for (int i = 0; i < Tiles::BN / kBoxRows; ++i) {
    const tc::BoxCoord b = tc::a_box(tile_n * (Tiles::BN / kBoxRows) + i, k_step, kBoxRows, Tiles::BK);  // Bᵀ is K-major as A
    tma_load_2d(bs + i * kBoxBytes, bt_map, b.inner, b.outer, bar);
  }
}
//! [tma_load_k_step]
#endif

/// `Stages` buffers of one A tile and one Bᵀ tile each (of the shape TileShape), and their "full" and "empty" mbarriers, in
/// the block's dynamic shared memory (tc::ring_layout), from a base aligned up to 1024 bytes.
template <typename In, int Stages, typename TileShape = WgmmaTiles<In>>
struct TmaRing {
  using Tiles = TileShape;
  static constexpr tc::RingLayout kLayout = tc::ring_layout(Stages, Tiles::BM * Tiles::kRowBytes, Tiles::BN * Tiles::kRowBytes);
  static_assert(Stages >= 2, "one wgmma group stays in flight: one stage would be overwritten while read (test_pipeline_ring)");
  static_assert(kLayout.stage_bytes % tc::kRingAlignment == 0 && kLayout.b_offset % tc::kRingAlignment == 0,
                "every tile on a 1024-byte boundary (the 128-byte swizzle's period)");
  static_assert(kLayout.dynamic_bytes <= tc::kMaxSharedPerBlockSm90, "the ring must fit an H100 block's 227 KiB");
  // As plain constants, which device code may read (a constexpr object of class type it may not).
  static constexpr int kStageBytes = kLayout.stage_bytes, kBOffset = kLayout.b_offset;
  static constexpr int kFull = kLayout.full_offset, kEmpty = kLayout.empty_offset;
  static constexpr int kDynamicBytes = kLayout.dynamic_bytes;

  unsigned base;          // shared-window address of the aligned base
  unsigned char* bytes;   // the same, as a generic pointer (for the TF32 rounding's stores)

  __device__ explicit TmaRing(unsigned char* dynamic) {
    const unsigned raw = shared_address(dynamic);
    base = (raw + tc::kRingAlignment - 1) & ~static_cast<unsigned>(tc::kRingAlignment - 1);
    bytes = dynamic + (base - raw);
  }
  __device__ unsigned a(int stage) const { return base + static_cast<unsigned>(stage * kStageBytes); }
  __device__ unsigned b(int stage) const { return a(stage) + static_cast<unsigned>(kBOffset); }
  __device__ unsigned char* a_tile(int stage) const { return bytes + stage * kStageBytes; }
  __device__ unsigned char* b_tile(int stage) const { return a_tile(stage) + kBOffset; }
  __device__ unsigned full(int stage) const { return base + static_cast<unsigned>(kFull + 8 * stage); }
  __device__ unsigned empty(int stage) const { return base + static_cast<unsigned>(kEmpty + 8 * stage); }
};

/// The grid of a TMA step: one block per tile of C (64 x 64 for steps 4 to 6).
template <typename Tiles = WgmmaTiles<float>>
dim3 tma_grid(const TmaArgs& g, const char* kernel) {
  const dim3 grid(blocks_for(g.n, Tiles::BN), blocks_for(g.m, Tiles::BM));
  if (grid.y > kMaxGridY) throw std::length_error(std::string(kernel) + ": more block rows than gridDim.y allows");
  return grid;
}

/// A kernel may use more than 48 KiB of dynamic shared memory only after it opts in (CUDA
/// Programming Guide, "Shared Memory" of compute capability 9.0). Set before every launch: it is a
/// host-side attribute of the function, cheap beside a product, and stays right if the device changes.
template <typename Kernel>
void allow_dynamic_shared(Kernel* kernel, int bytes) {
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

/// What every launch of a warp-specialised kernel (steps 6-10) does first: its register pool
/// checked against the split (check_register_pool; once per kernel, as the build does not change
/// while the program runs) and its dynamic shared memory allowed.
template <auto Kernel>
void prepare_warp_specialized(const char* name, RegisterSplit split, int dynamic_bytes) {
  static const bool pool_checked = (check_register_pool(Kernel, name, split), true);
  (void)pool_checked;
  allow_dynamic_shared(Kernel, dynamic_bytes);
}

}  // namespace gpgpu::blas::cuda
