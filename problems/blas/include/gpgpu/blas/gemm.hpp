/// @file gemm.hpp
/// @brief C = A·B for row-major A (m x k) and B (k x n) of float or double: the operands every
/// multiply chapter generates, the FP64 reference, and the error bound that judges a result.
///
/// The bound is the classical one for a dot product of k terms (Higham, "Accuracy and Stability of
/// Numerical Algorithms", 2nd ed., sec. 3.1, eq. 3.5): computed in floating point with unit roundoff
/// u, in any order of the additions, with or without fused multiply-adds,
///     |C - Ĉ| <= γ_k |A||B|   (element by element),   γ_k = k u / (1 - k u).
/// It holds for every summation tree, so it judges a split-K library call and a tensor core alike,
/// and needs no guessed constant.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/matrix/matrix.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::blas {

using matrix::ElementType;
using matrix::HostMatrix;
using matrix::Shape;

/// C (m x n) = A (m x k) · B (k x n).
struct Dims {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  [[nodiscard]] Shape a() const { return {m, k}; }
  [[nodiscard]] Shape b() const { return {k, n}; }
  [[nodiscard]] Shape c() const { return {m, n}; }
  /// "4096x4096x4096" (m x n x k).
  [[nodiscard]] std::string str() const;
  [[nodiscard]] bool square() const { return m == n && n == k; }
  friend bool operator==(const Dims&, const Dims&) = default;
};

/// The operands of a run.
struct Operands {
  HostMatrix a;
  HostMatrix b;
  [[nodiscard]] Dims dims() const { return {a.shape().rows, b.shape().cols, a.shape().cols}; }
};

/// A and B of `dims` with random values of both signs (matrix::random_matrix: uniform in [-100, 100)).
Operands random_operands(const Dims& dims, ElementType type, unsigned seed);

/// How a variant rounds: the products and sums of its element type, or tensor cores' narrow inputs.
enum class Arithmetic {
  fp32,  ///< IEEE single: u = 2^-24
  fp64,  ///< IEEE double: u = 2^-53
  tf32,  ///< inputs cut to TF32 (10 explicit mantissa bits), products and sums in FP32
  bf16,  ///< inputs rounded to bfloat16 (7 explicit mantissa bits) once, products and sums in FP32
  bf16_bf16_c,  ///< the same with C rounded to bfloat16
  fp8,   ///< inputs quantised to E4M3 with one scale per tensor (fp8.hpp), sums in the tensor cores' FP8 accumulator, FP32 C
  fp8_bf16_c,  ///< the same with C rounded to bfloat16
  fp8_blocks,  ///< E4M3 with one scale per 1 x 128 block of A and 128 x 128 block of B (fp8.hpp), the FP8
               ///< accumulator's partial sums promoted to FP32 every kFp8BlockK of k, FP32 C
  fp8_blocks_bf16_c,  ///< the same with C rounded to bfloat16
};
std::string_view arithmetic_name(Arithmetic a);
/// fp32 for float, fp64 for double.
Arithmetic native_arithmetic(ElementType t);

/// The largest k the bound is meaningful for: k u <= 1/4 in every arithmetic (the FP32 sums of the
/// TF32 and BF16 variants take u = 2^-23, see error_bound), i.e. k <= 2^21.
inline constexpr std::int64_t kMaxK = std::int64_t{1} << 21;

/// The significant bits the FP8 tensor cores are taken to keep when they add a k-step's products
/// to the accumulator (see element_bound and the comment above error_bound in gemm.cpp): each addend is cut to this width at the exponent of the
/// step's largest addend. Assumed from DeepSeek-AI's observation on Hopper ("DeepSeek-V3 Technical
/// Report", arXiv:2412.19437, sec. 3.3.2: the FP8 GEMM's accumulation retains around 14 bits, which
/// DeepGEMM answers by promoting partial sums to FP32 registers). Chapter 10c's GPU test of the FP8
/// accumulator (test_ch10c_cuda, Fp8Accumulator) measures it on the device and fails if this
/// constant exceeds what it finds.
inline constexpr int kFp8AccumulatorBits = 14;
/// The products one FP8 wgmma k-step adds (m64nNk32): the bound's model aligns and cuts them with
/// the running sum once per k-step (kFp8CutsPerStep cuts at most).
inline constexpr std::int64_t kFp8KStep = 32;
/// The cuts one k-step may make in the bound (see gemm.cpp): its kFp8KStep products and the running
/// sum, each aligned to the largest of them and cut there, and the result's normalisation.
inline constexpr int kFp8CutsPerStep = static_cast<int>(kFp8KStep) + 2;
/// Block scaling (fp8_blocks): the k of one scale block of A (1 x kFp8BlockK) and of B
/// (kFp8BlockK x kFp8BlockK), and the k over which the FP8 accumulator sums before its partial sum
/// is scaled and added into FP32 registers (DeepSeek-V3's report, sec. 3.3.2; DeepGEMM).
inline constexpr std::int64_t kFp8BlockK = 128;

/// Whether `arithmetic` is judged against the FP64 product of its dequantised inputs (FP8: the
/// inputs' rounding is then in the reference, and the bound is the accumulator's and the
/// epilogue's) rather than of the float inputs.
bool judged_on_dequantised_inputs(Arithmetic arithmetic);
/// Whether `arithmetic` quantises with block scales (fp8_blocks, fp8_blocks_bf16_c; fp8.hpp).
bool block_scaled(Arithmetic arithmetic);

/// The largest k whose bound is meaningful in `arithmetic` (kMaxK, or less for FP8 with a scale per
/// tensor, whose accumulator's bound compounds over all ⌈k/32⌉ k-steps: see gemm.cpp; block scaling
/// restarts it every 128).
std::int64_t max_k(Arithmetic arithmetic);

/// The bound of one element of C, |C - Ĉ| <= abs_ab |A||B| + partial_sums Q, where Q is the
/// element's Reference::partial_sums (the FP8 accumulator's running sums; see gemm.cpp for the
/// derivation). partial_sums is 0 outside FP8, where the bound is γ |A||B|.
struct ElementBound {
  double abs_ab = 0;
  double partial_sums = 0;
};
ElementBound element_bound(Arithmetic arithmetic, std::int64_t k);

/// γ such that |C - Ĉ| <= γ |A||B| must hold element by element for a k-term product computed in
/// `arithmetic`, including the FP64 reference's own error (see gemm.cpp for the derivation). Not
/// for FP8, whose bound also depends on each element's partial sums (element_bound): throws
/// std::invalid_argument there.
double error_bound(Arithmetic arithmetic, std::int64_t k);

/// The reference: C and |A||B| in FP64, row-major m x n; for an FP8 arithmetic (fp8_reference) also
/// Q per element.
struct Reference {
  Dims dims;
  std::vector<double> c;
  std::vector<double> abs_ab;
  std::string method;  ///< "OpenBLAS dgemm" or "blocked OpenMP loop"
  /// Q = Σ_s |C_s| over the FP8 accumulator's running sums C_s: the exact partial sums at every
  /// kFp8KStep of k since the accumulator last started from 0 (all of k per tensor; each kFp8BlockK
  /// block with block scales), the 0 it starts from left out. Empty for other arithmetics.
  std::vector<double> partial_sums;
};
/// By OpenBLAS's dgemm where CMake found it, else by reference_by_loop.
Reference reference(const Operands& ops);
/// The same by a cache-blocked OpenMP loop (no library): the fallback, and what tests compare with.
Reference reference_by_loop(const Operands& ops);
/// The reference an FP8 `arithmetic` is judged against, from its dequantised inputs
/// (dequantised_inputs, fp8.hpp): C and Q by slabs of kFp8KStep of k (OpenBLAS's dgemm with beta = 1
/// where CMake found it, else a loop), |A||B| in one product.
Reference fp8_reference(const Operands& dequantised, Arithmetic arithmetic);
/// The same by OpenMP loops alone: the fallback, and what tests compare with.
Reference fp8_reference_by_loop(const Operands& dequantised, Arithmetic arithmetic);

/// `got` (m x n, the operands' type) against the reference: passes when every element is finite
/// and within its bound (element_bound). Fills the Verification so that its summary reads:
/// rel_l2 = ‖got - C‖₂ / ‖C‖₂, and outside FP8 rel_max = max over elements of |got - C| / (|A||B|)
/// (the measure the bound is stated in), tolerance = the bound's γ, worst_index = where rel_max is.
/// For FP8 each element has its own bound: rel_max = the largest |got - C| / (its bound),
/// tolerance = 1, worst_index = that element, and the basis names both that share and
/// worst_relative_error. Throws std::invalid_argument for an FP8 arithmetic without partial_sums.
Verification compare(const HostMatrix& got, const Reference& ref, Arithmetic arithmetic);
/// max over elements of |got - C| / (|A||B|) (0 where both are 0, infinite where only |A||B| is)
/// for a result without NaN or infinity: the error against k that the FP8 rows print.
double worst_relative_error(const HostMatrix& got, const Reference& ref);

/// C = A·B in the operands' type by the textbook loop (one thread): what small tests compare a
/// library against, and the paper's CPU row.
HostMatrix naive_product(const Operands& ops);

}  // namespace gpgpu::blas
