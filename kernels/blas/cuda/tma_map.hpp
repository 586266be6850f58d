/// @file tma_map.hpp
/// @brief The parameters of chapter 10b's TMA tensor maps (step 4, 10b_04_tma.cu), as a pure function
/// the CPU tests check (tests/test_tensor_core_layout.cpp), and the shapes TMA cannot serve, with the
/// reason the chapter prints. The host code passes these parameters to cuTensorMapEncodeTiled
/// (problems/blas/cuda/src/tensor_maps.cpp); nothing here calls CUDA.
///
/// Both operands are K-major row-major matrices: A (m x k) as it is and Bᵀ (n x k, a transposed
/// copy of B made before the product). Each k-step of a tile loads one box per operand: `box_rows`
/// rows of 128 bytes of k, written by TMA with CU_TENSOR_MAP_SWIZZLE_128B, which is the layout steps
/// 2 and 3 stage by hand (tensor_core_layout.hpp) and wgmma reads through kmajor_sw128_descriptor.
/// Limits (CUDA driver API, cuTensorMapEncodeTiled): global address 16-byte aligned; each global
/// stride a multiple of 16 bytes below 2^40; each dimension 1 .. 2^32; each box dimension 1 .. 256;
/// the box's inner dimension in bytes a multiple of 16 and, with a swizzle, at most its span.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "tensor_core_layout.hpp"

namespace gpgpu::blas::cuda::tc {

/// A two-dimensional tensor map's parameters, innermost (contiguous) dimension first.
struct TmaMapShape {
  std::uint64_t dims[2];      ///< {columns (k), rows}
  std::uint64_t row_stride;   ///< bytes from one row to the next (cuTensorMapEncodeTiled's globalStrides[0])
  std::uint32_t box[2];       ///< {elements of k per box, rows per box}
  Swizzle swizzle;
};

/// The row pitch, in elements, of a K-major operand copy TMA can read: k rounded up so that a row
/// is a multiple of 16 bytes (cuTensorMapEncodeTiled's globalStrides). Where k already gives such
/// rows it is k, and A is read where it is; otherwise the preparation copies A into rows of this
/// pitch (Bᵀ, a copy anyway, is written with it). The map's k stays k, so TMA fills the columns
/// from k to the pitch with zeros instead of reading them.
//! [tma_pitch]
constexpr long long tma_pitch(long long k, int element_bytes) {
  const long long per_16_bytes = 16 / element_bytes;
  return (k + per_16_bytes - 1) / per_16_bytes * per_16_bytes;
}
//! [tma_pitch]

/// The map of a row-major rows x k operand stored in rows of `pitch` elements (k <= pitch), read in
/// boxes of box_rows rows by 128 bytes of k.
//! [tma_map_shape]
constexpr TmaMapShape kmajor_sw128_map(long long rows, long long k, int element_bytes, int box_rows, long long pitch) {
  return {{static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(rows)},
          static_cast<std::uint64_t>(pitch) * static_cast<std::uint64_t>(element_bytes),
          {static_cast<std::uint32_t>(128 / element_bytes), static_cast<std::uint32_t>(box_rows)},
          Swizzle::b128};
}
//! [tma_map_shape]

/// Chapter 10b's step 11's map of C (m x n, row-major, rows of `ldc` elements, ldc = tma_pitch(n, element_bytes)),
/// which the kernel writes by TMA stores: the same shape as an operand's, C's n in the place of k,
/// its box one staged C box (kCBoxRows rows of 128 bytes, 128B-swizzled: tc::c_staging_offset).
/// TMA writes only the box's elements inside m x n, so the tiles past C's edges need no other care.
//! [c_map_shape]
constexpr TmaMapShape c_sw128_map(long long m, long long n, int element_bytes, long long ldc) {
  return kmajor_sw128_map(m, n, element_bytes, kCBoxRows, ldc);
}
//! [c_map_shape]

/// Why TMA cannot serve a product with this k, or nothing: k = 0 (a tensor map needs dimensions of
/// at least 1, and the k loop would run no step, leaving the accumulators unwritten and the last
/// step's release on stage -1). Any k >= 1 is served, through tma_pitch.
inline std::optional<std::string> tma_refusal(long long k) {
  if (k < 1) return "TMA needs k >= 1: k = " + std::to_string(k);
  return std::nullopt;
}

}  // namespace gpgpu::blas::cuda::tc
