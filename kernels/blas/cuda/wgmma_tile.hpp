/// @file wgmma_tile.hpp
/// @brief What chapter 10b's wgmma steps (3: 10b_03_wgmma.cu, 4: 10b_04_tma.cu, 5: 10b_05_pipeline.cu, 6:
/// 10b_06_warp_specialized.cu) share around the instructions of wgmma.hpp: the tile shape, one
/// 128-byte k-block of products on staged tiles (waited for, or left in flight), TF32 rounding of a
/// staged tile in place, and the accumulators' store. The steps differ in who fills the tiles
/// (threads or TMA), how they learn the tiles are full, and how many tiles are in flight.
#pragma once
#include <type_traits>

#include "mma_sync.hpp"  // to_tf32, shared_address
#include "tensor_core_layout.hpp"
#include "tensor_core_launchers.hpp"
#include "wgmma.hpp"

namespace gpgpu::blas::cuda {

/// The tile of C a block computes and how K is cut: one consumer warpgroup per 64 rows of the tile
/// (steps 3 to 6: one warpgroup, 64 x 64; step 7: two, 128 x 256), K in blocks of 128 bytes of each
/// operand row (the 128-byte swizzle's row), one wgmma per 32 bytes of it (k8 TF32, k16 BF16, k32
/// E4M3: 32, 64 or 128 elements per k-step).
template <typename In, int Consumers = 1, int N = 64>
struct WgmmaTiles {
  static constexpr int kConsumers = Consumers;
  static constexpr int BM = 64 * Consumers, BN = N, kThreads = 128;
  static constexpr int kRowBytes = 128;
  static constexpr int BK = kRowBytes / static_cast<int>(sizeof(In));  // 32 TF32, 64 BF16 or 128 E4M3 elements
  static constexpr int kStepBytes = 32;
  static constexpr int kAccumulators = 64 * N / kThreads;  // per thread of a consumer warpgroup
};

#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
/// Issues acc += the A tile (BM rows of 128 bytes of k) times the Bᵀ tile (BN rows of 128 bytes
/// of k), both K-major and 128B-swizzled at shared addresses `as` and `bs` (1024-byte aligned),
/// visible to the async proxy, as one wgmma group, and returns without waiting for it: the
/// pipelined steps (5, 6) keep it in flight while the next tiles land. `accumulate` 0 makes the
/// first product overwrite acc instead (the first k-step of the pipelined steps: their accumulators
/// are never set by other instructions, which would make ptxas serialise the wgmma in flight
/// across the loop, its warning C7515).
//! [wgmma_k_block]
template <typename In, int R>
__device__ __forceinline__ void wgmma_k_block_async(float (&acc)[R], unsigned as, unsigned bs, int accumulate = 1) {
  static_assert(std::is_same_v<In, Fp8> ? R == 64 || R == 128 : R == 32 || R == 128,
                "an m64n64 (32 accumulators, TF32 and BF16), m64n128 (64, E4M3) or m64n256 (128) wgmma");
  using Tiles = WgmmaTiles<In>;
  wgmma_fence();
#pragma unroll
  for (int kb = 0; kb < Tiles::kRowBytes; kb += Tiles::kStepBytes) {
    const std::uint64_t a = tc::kmajor_sw128_descriptor(as, kb), b = tc::kmajor_sw128_descriptor(bs, kb);
    const int scale_d = kb == 0 ? accumulate : 1;
    if constexpr (std::is_same_v<In, Fp8> && R == 64)
      wgmma_m64n128k32_e4m3(acc, a, b, scale_d);  // chapter 10c's step 2
    else if constexpr (std::is_same_v<In, Fp8>)
      wgmma_m64n256k32_e4m3(acc, a, b, scale_d);  // chapter 10c's step 1
    else if constexpr (std::is_same_v<In, float> && R == 32)
      wgmma_m64n64k8_tf32(acc, a, b, scale_d);
    else if constexpr (R == 32)
      wgmma_m64n64k16_bf16(acc, a, b, scale_d);
    else if constexpr (std::is_same_v<In, float>)
      wgmma_m64n256k8_tf32(acc, a, b, scale_d);
    else
      wgmma_m64n256k16_bf16(acc, a, b, scale_d);
  }
  wgmma_commit_group();
}

/// The same, waited for: returns when the products are done and the tiles may be overwritten by
/// this warpgroup (the caller's barrier then covers the other warps). Steps 3 and 4.
template <typename In, int R>
__device__ __forceinline__ void wgmma_k_block(float (&acc)[R], unsigned as, unsigned bs) {
  wgmma_k_block_async<In>(acc, as, bs);
  wgmma_wait_group<0>();
}
//! [wgmma_k_block]
#endif

/// The `count` floats of a staged tile rounded to TF32 (cvt.rna) in place by Threads threads, this
/// one being `thread` of them (the swizzle moves whole elements, so the order does not matter).
template <int Threads>
__device__ __forceinline__ void round_tile_to_tf32(unsigned char* tile, int count, int thread) {
  for (int e = thread; e < count; e += Threads) {
    float* x = reinterpret_cast<float*>(tile) + e;
    *x = __uint_as_float(to_tf32(*x));
  }
}

/// Both tiles of a TMA stage (A: BM rows, Bᵀ: BN rows of 128 bytes) rounded to TF32 in place by
/// Threads threads, then fenced so that wgmma (the async proxy) sees the rounded values and a later
/// TMA write into the stage is ordered after them; the caller's barrier over those threads follows.
template <int Threads>
__device__ __forceinline__ void round_stage_to_tf32(unsigned char* a_tile, unsigned char* b_tile, int thread) {
  using Tiles = WgmmaTiles<float>;
  round_tile_to_tf32<Threads>(a_tile, Tiles::BM * Tiles::BK, thread);
  round_tile_to_tf32<Threads>(b_tile, Tiles::BN * Tiles::BK, thread);
  fence_proxy_async_shared();
}

/// Each thread of the warpgroup (`thread`: 0..127 within it) stores its own accumulators of the
/// 64 x N tile at (row0, col0), those inside C. Accumulators 2i and 2i + 1 are neighbours in a row
/// (tc::wgmma_d_element): where both lie inside C and n is even (so the pair is 8-byte aligned),
/// they go as one 8-byte store, so that a warp's store fills whole 32-byte sectors. With Add, each
/// is added to what C holds (step 10: a tile's first partial sums, which another block stored and
/// published), read past L1 (ld.global.cg), which might hold an older copy of the line.
template <bool Add = false, int R>
__device__ __forceinline__ void store_wgmma_tile(const float (&acc)[R], float* c, int m, int n, int row0, int col0, int thread) {
  const bool pairs = n % 2 == 0;
#pragma unroll
  for (int r = 0; r < R; r += 2) {
    const tc::RowCol e = tc::wgmma_d_element(thread, r);
    const int row = row0 + e.row, col = col0 + e.col;
    if (row >= m) continue;
    float* at = c + static_cast<long long>(row) * n + col;
    if constexpr (Add) {
      if (pairs && col + 1 < n) {
        const float2 held = __ldcg(reinterpret_cast<const float2*>(at));
        *reinterpret_cast<float2*>(at) = make_float2(held.x + acc[r], held.y + acc[r + 1]);
      } else {
        if (col < n) at[0] = __ldcg(at) + acc[r];
        if (col + 1 < n) at[1] = __ldcg(at + 1) + acc[r + 1];
      }
    } else if (pairs && col + 1 < n) {
      *reinterpret_cast<float2*>(at) = make_float2(acc[r], acc[r + 1]);
    } else {
      if (col < n) at[0] = acc[r];
      if (col + 1 < n) at[1] = acc[r + 1];
    }
  }
}

}  // namespace gpgpu::blas::cuda
