/// @file fp8_block_scales.hpp
/// @brief What chapter 10b's block-scaled FP8 step (12: 10b_12_fp8_block_scaled.cu) does with the
/// scales inside its main loop: a consumer thread's two scales of A for one k-block times B's for
/// one column block, and the promotion of that column block's k-block wgmma sums into FP32
/// registers (DeepSeek-V3's report, sec. 3.3.2; DeepGEMM). The scales' layout is launch_fp8_block's
/// (tensor_core_launchers.hpp).
#pragma once
#include "tensor_core_launchers.hpp"
#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda {

/// The factors of one k-block and one column block for the two rows of C a consumer thread holds
/// (tc::wgmma_d_element: accumulators r with r % 4 < 2 lie in one row, the others 8 rows below):
/// s_a(row, kb) · s_b(kb, col block), products of powers of two, exact. A row past C's m, or a column
/// block past its n, gets 0 (nothing of it is stored, and its scale lies past A's or B's). Read with
/// ordinary loads, issued by the caller while its wgmma run: two floats of A (a warp's 8 rows are
/// neighbours in the k-block's row of scales) and one of B.
struct RowFactors {
  float upper, lower;
};
//! [block_factors]
template <typename Out>
__device__ __forceinline__ RowFactors block_factors(const Fp8Epilogue<Out>& e, int m, int n_blocks, int k_block, int col_block,
                                                    int row0, int thread) {
  const float b = col_block < n_blocks ? __ldg(e.scale_b + static_cast<long long>(k_block) * n_blocks + col_block) : 0.0f;
  const float* a = e.scale_a + static_cast<long long>(k_block) * m;
  const int upper = row0 + tc::wgmma_d_element(thread, 0).row, lower = row0 + tc::wgmma_d_element(thread, 2).row;
  return {upper < m ? __ldg(a + upper) * b : 0.0f, lower < m ? __ldg(a + lower) * b : 0.0f};
}
//! [block_factors]

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
