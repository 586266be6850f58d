/// @file fp8.hpp
/// @brief FP8 (E4M3) inputs with one scale per tensor or per block, as the host sees them: the
/// rounding the GPU does (to nearest, ties to even, saturating at ±448), the scale amax / 448 of a
/// tensor, the power-of-two scale of a block, and the dequantised operands the FP8 variants are
/// judged against. The GPU's quantisation (chapter 10c,
/// kernels/blas/cuda/10c_quantise_inputs.cu) performs the same float operations in the same order, so
/// both give the same bytes.
///
/// E4M3 (OCP 8-bit floating point specification, 2023; NVIDIA's __nv_fp8_e4m3): 1 sign, 4 exponent
/// bits (bias 7), 3 mantissa bits; normal numbers from 2^-6 to 448 = 1.75 · 2^8, subnormals down to
/// 2^-9; no infinities. 4 significant bits: a value rounded to nearest is off by at most 2^-4 of
/// itself, while it is normal.
#pragma once
#include <cstdint>
#include <span>

#include "gpgpu/blas/gemm.hpp"

namespace gpgpu::blas {

/// The largest finite E4M3 value.
inline constexpr float kE4m3Max = 448.0f;

/// x rounded to the nearest E4M3 value (ties to even), beyond ±448 clamped to ±448 (the "satfinite"
/// conversion of cvt.rn.satfinite.e4m3x2.f32 and __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3)).
float round_to_e4m3(float x);

/// The per-tensor scale s with x ≈ s · e4m3(x / s): amax / 448 rounded to float (the largest
/// magnitude lands on 448, the top of E4M3's range), or 1 for a tensor of zeros.
float e4m3_scale(float amax);

/// The largest |x| of `values` (0 for none).
float amax(std::span<const float> values);

/// A float matrix as an FP8 variant sees it: every element x becomes s · e4m3(x / s) with the
/// tensor's scale s (x / s a correctly rounded float division), held in double, where it is exact
/// (4 significant bits times 24).
HostMatrix dequantised_e4m3(const HostMatrix& floats);

/// A and B dequantised (double): the inputs the FP64 reference of an FP8 variant multiplies, so
/// that the inputs' rounding is in the reference and the bound is the accumulator's alone.
Operands dequantised_e4m3(const Operands& floats);

/// The scale of one block (block scaling, Arithmetic::fp8_blocks): the smallest power of two s with
/// amax / s <= 448, so that amax / s lies in (224, 448]; at least 2^-126 (a normal float, for a
/// block of tiny values), 1 for a block of zeros. Powers of two make x / s, s · e4m3 and the product
/// of two scales exact (the bound in gemm.cpp); they cost at most one binade of E4M3's range at the
/// bottom. Computed with frexp and ldexp, which are exact, as the GPU's quantiser does
/// (10c_quantise_inputs.cu).
float e4m3_block_scale(float amax);

/// A float matrix quantised with one scale (e4m3_block_scale of the block's largest |x|) per block
/// of `block_rows` x `block_cols` (the last blocks partial), every x as s · e4m3(x / s), in double.
HostMatrix dequantised_e4m3_blocks(const HostMatrix& floats, std::int64_t block_rows, std::int64_t block_cols);

/// A (m x k) with a scale per 1 x kFp8BlockK block (a row's 128 values of k) and B (k x n) with one
/// per kFp8BlockK x kFp8BlockK block, dequantised: the inputs of the block-scaled FP8 variants.
Operands dequantised_e4m3_blocks(const Operands& floats);

/// The inputs the FP64 reference of `arithmetic` multiplies: dequantised_e4m3 or
/// dequantised_e4m3_blocks (judged_on_dequantised_inputs must hold).
Operands dequantised_inputs(Arithmetic arithmetic, const Operands& floats);

}  // namespace gpgpu::blas
