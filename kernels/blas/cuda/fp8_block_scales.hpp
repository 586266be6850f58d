/// @file fp8_block_scales.hpp
/// @brief What chapter 10c's block-scaled FP8 step (2: 10c_02_fp8_block_scaled.cu) does with the
/// scales inside its main loop: a consumer thread's two scales of A for one k-block times B's for
/// one column block, loaded one half ahead, and the promotion of that column block's k-block wgmma
/// sums into FP32 registers (DeepSeek-V3's report, sec. 3.3.2; DeepGEMM). The scales' layout is
/// launch_fp8_block's (tensor_core_launchers.hpp).
#pragma once
#include "tensor_core_launchers.hpp"
#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda {

/// The factors of one k-block and one column block for the two rows of C a consumer thread holds
/// (tc::wgmma_d_element: accumulators r with r % 4 < 2 lie in one row, the others 8 rows below):
/// s_a(row, kb) · s_b(kb, col block), products of powers of two, exact.
struct RowFactors {
  float upper, lower;
};

/// The half a consumer multiplies after half h of k-block s: the k-block's other column block, then
/// the next k-block's first, the kernel's loop order. PrefetchedFactors loads in this order; it is
/// stated once, here, where the CPU test (test_10b_kernels_emulated) can hold it to that loop.
struct KHalf {
  int k_block, half;
};
__host__ __device__ constexpr KHalf next_half(int k_block, int half) { return half == 0 ? KHalf{k_block, 1} : KHalf{k_block + 1, 0}; }

/// A consumer thread's scales for one tile, loaded one half ahead: take(e, s, h) gives half (s, h)'s
/// factors from loads issued during the half before, and issues next_half(s, h)'s in their place.
/// Why ahead: a half's factors are needed right after its wgmma are issued, so loads issued beside
/// those wgmma (as 10c's step 2 was first written) have only them to arrive in. Nsight Compute on an H200
/// (results/h200/ch10b_fp8_block_ncu/) counted 1.36 cycles of long_scoreboard stall per issued
/// instruction: global loads awaited, and these are the consumers' only ones, but the count also
/// holds their waits for a full stage's mbarrier, so it points at the loads without proving it.
/// Issued a half earlier they have the half before, its wait and its promotion. A tile's first half
/// takes the loads the constructor issues at the tile's start. The scales are kept as loaded and
/// multiplied only when taken, so that no instruction waits for them before then (an earlier
/// version that multiplied them as soon as it had issued their loads, right after a promotion, was
/// slower): three registers, one more than the products.
///
/// Ordinary loads: two floats of A (a warp's 8 rows are neighbours in the k-block's row of scales)
/// and one of B; L1 and L2 hold them. A row past C's m, or a column block past its n, gets 0
/// (nothing of it is stored, and its scale lies past A's or B's); so does a k-block past the last,
/// which the tile's last half asks for and nothing takes: not loaded, as it lies past both arrays.
//! [prefetched_factors]
struct PrefetchedFactors {
  int m, n_blocks, k_blocks;  // C's rows, B's scales per k-block, k-blocks
  int col_block0;             // the tile's first column block: half h is col_block0 + h
  int upper_row, lower_row;   // the thread's two rows of C
  float a_upper, a_lower, b;  // the scales of the half that take gives next, as loaded

  /// Issues the loads of the tile's first half, k-block 0's first column block.
  template <typename Out>
  __device__ __forceinline__ PrefetchedFactors(const Fp8Epilogue<Out>& e, int m_, int n_blocks_, int k_blocks_, int col_block0_, int row0,
                                               int thread)
      : m(m_),
        n_blocks(n_blocks_),
        k_blocks(k_blocks_),
        col_block0(col_block0_),
        upper_row(row0 + tc::wgmma_d_element(thread, 0).row),
        lower_row(row0 + tc::wgmma_d_element(thread, 2).row) {
    load(e, 0, col_block0);
  }

  /// Issues the loads of (k_block, col_block)'s scales, or none where the k-block is past the last.
  template <typename Out>
  __device__ __forceinline__ void load(const Fp8Epilogue<Out>& e, int k_block, int col_block) {
    const bool k_in = k_block < k_blocks;
    b = k_in && col_block < n_blocks ? __ldg(e.scale_b + static_cast<long long>(k_block) * n_blocks + col_block) : 0.0f;
    const float* a = e.scale_a + static_cast<long long>(k_block) * m;
    a_upper = k_in && upper_row < m ? __ldg(a + upper_row) : 0.0f;
    a_lower = k_in && lower_row < m ? __ldg(a + lower_row) : 0.0f;
  }

  /// Half (s, h)'s factors, from the loads of the half before; then next_half(s, h)'s loads.
  template <typename Out>
  __device__ __forceinline__ RowFactors take(const Fp8Epilogue<Out>& e, int s, int h) {
    const RowFactors f{a_upper * b, a_lower * b};
    const KHalf next = next_half(s, h);
    load(e, next.k_block, col_block0 + next.half);
    return f;
  }
};
//! [prefetched_factors]

/// sums += one column block's k-block sums times their rows' factors, in FP32 on the CUDA cores
/// (each an FMA: the product by a power of two is exact, so only the add rounds). sums holds a
/// 64 x 2S tile as an m64n(2S) wgmma would (tc::wgmma_d_element: 4 accumulators per 8 columns),
/// acc its columns 2R · part .. 2R · part + 2R - 1 as an m64n(2R) wgmma would, so acc's r is sums'
/// R · part + r. `part` must be known when the call is compiled (a constant, or the index of an
/// unrolled loop), or sums leaves the registers for local memory.
//! [promote]
template <int S, int R>
__device__ __forceinline__ void promote(float (&sums)[S], const float (&acc)[R], RowFactors f, int part) {
  static_assert(S % R == 0 && R % 4 == 0, "whole parts of whole 8-column groups");
#pragma unroll
  for (int r = 0; r < R; ++r) sums[part * R + r] += acc[r] * (r % 4 < 2 ? f.upper : f.lower);
}
//! [promote]

}  // namespace gpgpu::blas::cuda
