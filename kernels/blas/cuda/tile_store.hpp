/// @file tile_store.hpp
/// @brief Chapter 10b's step 11 epilogue (10b_11_tma_store.cu): a consumer warpgroup's 64 x N tile of
/// FP32 sums written to C through shared memory and TMA stores, in BF16 or FP32. The warpgroup puts
/// its accumulators into its staging buffer as C's tensor map boxes lie (tc::c_staging_offset:
/// boxes of 64 rows x 128 bytes, 128B-swizzled), then one thread asks TMA to store the boxes and goes
/// on without waiting for them: the next tile's products start while the engine drains the buffer.
/// Steps 1-12 store each accumulator pair from its thread straight to global memory instead
/// (store_wgmma_tile, wgmma_tile.hpp).
#pragma once
#include <cstdint>
#include <type_traits>

#include <cuda.h>  // CUtensorMap
#include <cuda_bf16.h>

#include "tensor_core_launchers.hpp"  // Bf16
#include "tensor_core_layout.hpp"
#include "tma_store.hpp"
#include "warp_specialization.hpp"  // named_barrier_sync
#include "wgmma.hpp"                // fence_proxy_async_shared

namespace gpgpu::blas::cuda {

#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)

/// Two sums rounded to BF16 (to nearest even) in one 32-bit register, x in the low half: the lower
/// column, as stmatrix's registers hold a row's neighbours.
__device__ __forceinline__ std::uint32_t bf16_pair(float x, float y) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(x, y);
  return *reinterpret_cast<const std::uint32_t*>(&pair);
}

/// Columns first .. first + cols - 1 of the warpgroup's 64 x N accumulators (tc::wgmma_d_element)
/// into the staging buffer at shared address `buffer`, column `first` at its first box. A warp's
/// instruction writes 8 rows of one 8-column slice (FP32: 32 bytes of each row; BF16 by stmatrix:
/// 16 bytes of each row of two slices, the rows 0-7 and 8-15 of the warp) and the swizzle puts those
/// rows' chunks in different bank groups, so each instruction takes the fewest wavefronts its bytes
/// need (test_tensor_core_layout, CStaging) if the hardware serves a warp's 8-byte stores together;
/// served a half-warp at a time, FP32's take four instead of two (the profile's shared-store bank
/// conflicts tell which).
//! [stage_columns]
template <typename Out, int R>
__device__ __forceinline__ void stage_columns(const float (&acc)[R], unsigned buffer, int first, int cols, int thread) {
  constexpr int kBytes = static_cast<int>(sizeof(Out));
  if constexpr (std::is_same_v<Out, Bf16>) {
    const int warp_row = 16 * (thread / 32);
    const tc::RowChunk at = tc::ldmatrix_x4_row(thread % 32);  // stmatrix takes its rows as ldmatrix does
#pragma unroll
    for (int j = first / 8; j < (first + cols) / 8; j += 2) {  // slices j and j + 1: rows 0-7 and 8-15 of each
      const unsigned row = buffer + tc::c_staging_offset(warp_row + at.row, 8 * (j + at.chunk) - first, kBytes);
      stmatrix_x4(row, bf16_pair(acc[4 * j], acc[4 * j + 1]), bf16_pair(acc[4 * j + 2], acc[4 * j + 3]),
                  bf16_pair(acc[4 * j + 4], acc[4 * j + 5]), bf16_pair(acc[4 * j + 6], acc[4 * j + 7]));
    }
  } else {
#pragma unroll
    for (int r = first / 2; r < (first + cols) / 2; r += 2) {  // registers 4j .. 4j + 3 are slice j's
      const tc::RowCol e = tc::wgmma_d_element(thread, r);
      store_shared_pair(buffer + tc::c_staging_offset(e.row, e.col - first, kBytes), acc[r], acc[r + 1]);
    }
  }
}
//! [stage_columns]

/// The warpgroup's 64 x N tile at (row0, col0) of C (m x n) through its staging buffer of
/// StagingBytes at `buffer`, by TMA stores of `map` (tc::c_sw128_map), in passes of as many columns
/// as the buffer holds (the whole tile in BF16, half of it in FP32 with 32 KiB). Each pass: the
/// issuing thread (`thread` 0) waits until the engine has read the buffer's last store, the
/// warpgroup's barrier `barrier` tells the others; every thread stages its part and fences it for
/// the async proxy; a second barrier; thread 0 issues the boxes inside C and commits them as one
/// bulk group, and nobody waits for it: the last pass of a tile drains while the next tile's wgmma
/// run, and the wait at the next pass (or tile) finds it long done. The caller waits for the last
/// group (bulk_wait_group) before the block exits.
//! [store_tile_by_tma]
template <typename Out, int StagingBytes, int R>
__device__ __forceinline__ void store_tile_by_tma(const float (&acc)[R], unsigned buffer, const CUtensorMap* map, int m, int n,
                                                  int row0, int col0, int barrier, int thread) {
  constexpr int kBytes = static_cast<int>(sizeof(Out)), kThreads = 128, N = 2 * R;  // R = 64 N / 128 accumulators
  constexpr int kBoxCols = 128 / kBytes, kBoxBytes = tc::kCBoxRows * 128;
  constexpr int kPassCols = StagingBytes / (tc::kCBoxRows * kBytes) < N ? StagingBytes / (tc::kCBoxRows * kBytes) : N;
  static_assert(kPassCols % kBoxCols == 0 && N % kPassCols == 0, "whole boxes per pass, whole passes per tile");
#pragma unroll
  for (int first = 0; first < N; first += kPassCols) {
    if (thread == 0) bulk_wait_group_read<0>();  // the engine has read what the buffer held
    named_barrier_sync(barrier, kThreads);
    stage_columns<Out>(acc, buffer, first, kPassCols, thread);
    fence_proxy_async_shared();  // this thread's stores, visible to the TMA store's reads
    named_barrier_sync(barrier, kThreads);
    if (thread == 0) {
#pragma unroll
      for (int b = 0; b < kPassCols / kBoxCols; ++b) {
        const int col = col0 + first + b * kBoxCols;
        if (row0 < m && col < n) tma_store_2d(map, col, row0, buffer + static_cast<unsigned>(b * kBoxBytes));
      }
      bulk_commit_group();
    }
  }
}
//! [store_tile_by_tma]
#endif

}  // namespace gpgpu::blas::cuda
