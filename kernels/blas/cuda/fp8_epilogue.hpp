/// @file fp8_epilogue.hpp
/// @brief The epilogue of chapter 10c's FP8 steps (1: 10c_01_fp8.cu): a consumer warpgroup's FP32
/// sums of a 64 x N tile of products of E4M3 values, multiplied by the product of the operands'
/// scales (the sums are of the quantised values e4m3(x / s); C = s_a · s_b · the sums), stored into
/// C in FP32 or BF16 in rows of ldc elements.
#pragma once
#include <type_traits>

#include <cuda_bf16.h>

#include "tensor_core_launchers.hpp"
#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda {

/// The factor every sum is multiplied by: s_a · s_b, one float product, read by each thread once
/// per kernel (the quantiser wrote both scales on the device before the launch).
template <typename Out>
__device__ __forceinline__ float fp8_scale(const Fp8Epilogue<Out>& e) {
  return __ldg(e.scale_a) * __ldg(e.scale_b);
}

/// Each thread of the warpgroup (`thread`: 0..127 within it) stores its accumulators of the 64 x N
/// tile at (row0, col0) times `scale`, those inside C (m x n). Accumulators 2i and 2i + 1 are
/// neighbours in a row (tc::wgmma_d_element) at an even column, and ldc is a multiple of 16, so a
/// pair inside C goes as one aligned store of 8 bytes (FP32) or 4 (two BF16, each rounded to
/// nearest even); the last column of an odd n goes alone.
//! [fp8_store]
template <typename Out, int R>
__device__ __forceinline__ void store_scaled_tile(const float (&acc)[R], const Fp8Epilogue<Out>& e, float scale, int m, int n,
                                                  int row0, int col0, int thread) {
#pragma unroll
  for (int r = 0; r < R; r += 2) {
    const tc::RowCol el = tc::wgmma_d_element(thread, r);
    const int row = row0 + el.row, col = col0 + el.col;
    if (row >= m || col >= n) continue;
    Out* at = e.c + static_cast<long long>(row) * e.ldc + col;
    const float x = acc[r] * scale, y = acc[r + 1] * scale;
    if constexpr (std::is_same_v<Out, float>) {
      if (col + 1 < n)
        *reinterpret_cast<float2*>(at) = make_float2(x, y);
      else
        at[0] = x;
    } else {
      if (col + 1 < n)
        *reinterpret_cast<__nv_bfloat162*>(at) = __floats2bfloat162_rn(x, y);
      else
        at[0] = __float2bfloat16_rn(x);
    }
  }
}
//! [fp8_store]

}  // namespace gpgpu::blas::cuda
