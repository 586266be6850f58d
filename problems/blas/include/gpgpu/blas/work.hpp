/// @file work.hpp
/// @brief The work table of C = A·B, from which every rate of the multiply chapters is computed.
///
///   FLOPs        2 m n k           (k multiplies and k adds per element of C: the convention of
///                                   every BLAS benchmark, a fused multiply-add counts as two)
///   bytes (min)  (m k + k n + m n) s   every operand read once, C written once (s = element bytes)
///   items        m n               elements of C
#pragma once
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::blas {

/// The work of `calls` products of `dims` in `type`.
Work gemm_work(const Dims& dims, ElementType type, int calls);

}  // namespace gpgpu::blas
