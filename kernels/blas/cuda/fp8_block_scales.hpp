/// @file fp8_block_scales.hpp
/// @brief What chapter 10b's block-scaled FP8 step (12: 10b_12_fp8_block_scaled.cu) does with the
/// scales inside its main loop: a consumer thread's two scales of A for one k-block times B's, and
/// the promotion of one k-block's wgmma sums into FP32 registers (DeepSeek-V3's report, sec. 3.3.2;
/// DeepGEMM). The scales' layout is launch_fp8_block's (tensor_core_launchers.hpp).
#pragma once
#include "tensor_core_launchers.hpp"
#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda {

/// The factors of one k-block for the two rows of C a consumer thread holds (tc::wgmma_d_element:
/// accumulators r with r % 4 < 2 lie in one row, the others 8 rows below): s_a(row, kb) · s_b(kb, col
/// block), products of powers of two, exact. A row past C's m gets 0 (nothing of it is stored, and
/// its scale lies past A's). Read with ordinary loads, issued by the caller while its wgmma run:
/// two floats of A (a warp's 8 rows are neighbours in the k-block's row of scales) and one of B.
struct RowFactors {
  float upper, lower;
};
//! [block_factors]
template <typename Out>
__device__ __forceinline__ RowFactors block_factors(const Fp8Epilogue<Out>& e, int m, int n_blocks, int k_block, int col_block,
                                                    int row0, int thread) {
  const float b = __ldg(e.scale_b + static_cast<long long>(k_block) * n_blocks + col_block);
  const float* a = e.scale_a + static_cast<long long>(k_block) * m;
  const int upper = row0 + tc::wgmma_d_element(thread, 0).row, lower = row0 + tc::wgmma_d_element(thread, 2).row;
  return {upper < m ? __ldg(a + upper) * b : 0.0f, lower < m ? __ldg(a + lower) * b : 0.0f};
}
//! [block_factors]

/// sums += the k-block's wgmma sums times their rows' factors, in FP32 on the CUDA cores (each an
/// FMA or a multiply and an add: the product by a power of two is exact, so only the add rounds).
//! [promote]
template <int R>
__device__ __forceinline__ void promote(float (&sums)[R], const float (&acc)[R], RowFactors f) {
#pragma unroll
  for (int r = 0; r < R; ++r) sums[r] += acc[r] * (r % 4 < 2 ? f.upper : f.lower);
}
//! [promote]

}  // namespace gpgpu::blas::cuda
