#include "gpgpu/blas/gemm.hpp"

#include "gpgpu/blas/bound.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#if GPGPU_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace gpgpu::blas {
namespace {

double unit_roundoff(Arithmetic a) {
  switch (a) {
    case Arithmetic::fp32: return std::ldexp(1.0, -24);
    case Arithmetic::fp64: return std::ldexp(1.0, -53);
    case Arithmetic::tf32:
    case Arithmetic::bf16:
    case Arithmetic::bf16_bf16_c: return std::ldexp(1.0, -23);  // the FP32 sums of tensor cores: see error_bound
    case Arithmetic::fp8:
    case Arithmetic::fp8_bf16_c:
    case Arithmetic::fp8_blocks:
    case Arithmetic::fp8_blocks_bf16_c: return std::ldexp(1.0, 1 - kFp8AccumulatorBits);  // one cut per k-step: see error_bound
  }
  return 0;
}

// The relative error of one input of a tensor-core product, before the product (see error_bound);
// 0 where the inputs are used as they are.
double input_roundoff(Arithmetic a) {
  switch (a) {
    case Arithmetic::tf32: return std::ldexp(1.0, -11);
    case Arithmetic::bf16:
    case Arithmetic::bf16_bf16_c: return std::ldexp(1.0, -8);
    case Arithmetic::fp32:
    case Arithmetic::fp64:
    case Arithmetic::fp8:  // rounded, but the reference multiplies the rounded inputs: see error_bound
    case Arithmetic::fp8_bf16_c:
    case Arithmetic::fp8_blocks:
    case Arithmetic::fp8_blocks_bf16_c: return 0;
  }
  return 0;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The rounding steps of the sums: one per product and sum, or, in the FP8 accumulator, one per
// k-step of kFp8KStep products (with block scaling: per k-step of one block of kFp8BlockK, at most
// 4, as the accumulator restarts from 0 at every block).
std::int64_t sum_steps(Arithmetic a, std::int64_t k) {
  if (block_scaled(a)) return std::min(ceil_div(k, kFp8KStep), kFp8BlockK / kFp8KStep);
  return judged_on_dequantised_inputs(a) ? ceil_div(k, kFp8KStep) : k;
}

// C rounded to bfloat16 at the end (to nearest): its relative error, else 0.
double output_roundoff(Arithmetic a) {
  return a == Arithmetic::fp8_bf16_c || a == Arithmetic::fp8_blocks_bf16_c || a == Arithmetic::bf16_bf16_c ? std::ldexp(1.0, -8) : 0;
}


template <typename T>
std::vector<double> widened(const HostMatrix& m) {
  const std::span<const T> v = m.as<T>();
  return std::vector<double>(v.begin(), v.end());
}

}  // namespace

std::string Dims::str() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }

Operands random_operands(const Dims& dims, ElementType type, unsigned seed) {
  return {matrix::random_matrix(dims.a(), type, seed), matrix::random_matrix(dims.b(), type, seed + 1)};
}

std::string_view arithmetic_name(Arithmetic a) {
  switch (a) {
    case Arithmetic::fp32: return "FP32";
    case Arithmetic::fp64: return "FP64";
    case Arithmetic::tf32: return "TF32";
    case Arithmetic::bf16: return "BF16";
    case Arithmetic::bf16_bf16_c: return "BF16_BF16C";
    case Arithmetic::fp8: return "FP8";
    case Arithmetic::fp8_bf16_c: return "FP8_BF16C";
    case Arithmetic::fp8_blocks: return "FP8_BLOCKS";
    case Arithmetic::fp8_blocks_bf16_c: return "FP8_BLOCKS_BF16C";
  }
  return "unknown";
}

bool judged_on_dequantised_inputs(Arithmetic a) {
  return a == Arithmetic::fp8 || a == Arithmetic::fp8_bf16_c || block_scaled(a);
}
bool block_scaled(Arithmetic a) { return a == Arithmetic::fp8_blocks || a == Arithmetic::fp8_blocks_bf16_c; }

std::int64_t max_k(Arithmetic a) {
  if (!judged_on_dequantised_inputs(a) || block_scaled(a)) return kMaxK;
  return kFp8KStep * static_cast<std::int64_t>(0.25 / unit_roundoff(a));
}

Arithmetic native_arithmetic(ElementType t) { return t == ElementType::f64 ? Arithmetic::fp64 : Arithmetic::fp32; }

// The bound, term by term:
// - FP32 and FP64: γ_k(u) for the k products and k - 1 sums (an FMA rounds once where a multiply
//   and an add round twice, so it only helps).
// - TF32: each input is rounded to 10 explicit mantissa bits before the product, to nearest: a
//   relative error of at most u_in = 2^-11. Measured on the H100 (chapter 10b's TF32 input test),
//   the tensor cores would cut a float handed to them as it is (to 2^-10); every TF32 kernel here
//   therefore rounds first (cvt.rna or __float_to_tf32 in the kernel, or chapter 10b's preparation
//   for its steps 7-10), and so does cuBLAS. So a product is off by at most (1 + u_in)^2 - 1. The products are exact in FP32, but the tensor
//   cores' FP32 sums need not round to nearest (Fasi, Higham, Mikaitis, Pranesh 2021 found
//   truncation): we take u = 2^-23, the bound of a directed rounding. Together:
//   (1 + u_in)^2 (1 + γ_k(2^-23)) - 1.
// - BF16: the same with u_in = 2^-8: the inputs are rounded to bfloat16 (8 significant bits) to
//   nearest, once, before the product (chapter 10b rounds them on the GPU, and cuBLAS receives the
//   same rounded copies). A product of two BF16 values has at most 16 significant bits, exact in
//   FP32, so only the inputs' rounding (2 u_in + u_in^2) and the k-term FP32 sum (γ_k) remain.
//   With C rounded to bfloat16 at the end (bf16_bf16_c: chapter 10b's step 13), one rounding to
//   nearest more, (1 + 2^-8): (1 + u_in)^2 (1 + γ_k(2^-23))(1 + u_out) - 1.
// - FP8 (E4M3, one scale per tensor): the reference multiplies the dequantised inputs s·e4m3(x/s)
//   (fp8.hpp), exact in double, so the inputs' rounding (u_in = 2^-4 relative in E4M3's normal
//   range, absolute below it) and the scale's own rounding are in the reference, not in the bound.
//   The products of two E4M3 values (8 significant bits) are exact. What remains:
//   * the accumulator. Assumed: the tensor core adds one k-step's 32 products to the accumulator
//     and keeps p = kFp8AccumulatorBits significant bits of the result, cut (DeepSeek-V3's report,
//     sec. 3.3.2, saw about 14 bits kept on Hopper; chapter 10b's GPU test of the FP8 accumulator
//     measures p, and this bound holds only while the measured p is at least the constant). One
//     directed rounding of relative error below 2^(1-p) per k-step is the recursive sum of
//     ⌈k/32⌉ terms: γ_⌈k/32⌉(2^(1-p)). Kernels that promote their partial sums to FP32 are only
//     more accurate, and so is cuBLASLt.
//   * the epilogue: the scale s_a s_b multiplied in float, then C times it: (1 + 2^-24)^2, and one
//     more (1 + 2^-24) for a library that folds alpha into the same product;
//   * C in BF16 (fp8_bf16_c): one rounding to nearest, (1 + 2^-8).
//   Together (1 + γ_⌈k/32⌉(2^(1-p)))(1 + 2^-24)^3(1 + u_out) - 1, relative to |Â||B̂| of the dequantised inputs.
// - FP8 with block scales (fp8_blocks: one scale per 1 x 128 block of A, per 128 x 128 block of B;
//   fp8.hpp), summed DeepGEMM's way: each block of 128 k in the FP8 accumulator from 0, then that
//   partial sum P times s_a(row, block) · s_b(block, column block) added into FP32 registers.
//   * The inputs: each x becomes s · e4m3(x / s) with its block's s, off by u_in = 2^-4 of itself
//     in E4M3's normal range (absolute 2^-10 s below it); a block's largest value sets its s, so a
//     block of small values is no longer rounded on the scale of the tensor's largest one. The
//     scales are powers of two (UE8M0-like, as DeepGEMM's newer kernels use): the smallest with
//     amax / s <= 448, exact, so x / s and s · e4m3 are exact, and the reference's dequantised
//     inputs are exactly what the tensor cores multiply. Both are in the reference, not the bound,
//     as for one scale per tensor.
//   * The partial sum of one block: at most 128 / 32 = 4 k-steps from 0, each cut to p bits:
//     γ_min(⌈k/32⌉,4)(2^(1-p)), independent of k.
//   * Its promotion: s_a · s_b is a product of powers of two, exact while it stays above 2^-126
//     (where the two blocks' largest magnitudes have a product above 2^-108), and so is P times it,
//     so the only rounding is the FP32 add (an FMA or not): the recursive sum of the ⌈k/128⌉
//     promoted partial sums, γ_⌈k/128⌉(2^-24) (the CUDA cores' FP32 adds round to nearest).
//   * No epilogue scale (the scales are in the loop); C in BF16: (1 + u_out).
//   Together (1 + γ_min(⌈k/32⌉,4)(2^(1-p)))(1 + γ_⌈k/128⌉(2^-24))(1 + u_out) - 1. At k = 8192, p = 14:
//   γ_4(2^-13) + γ_64(2^-24) = 4.92e-4 against one scale per tensor's γ_256(2^-13) = 3.23e-2: the
//   accumulator's share no longer grows with k, as 256 cuts of the same partial sum become 4.
// - The reference is computed in FP64 (from the exact inputs, widened), so it may be off by
//   γ_k(2^-53)|A||B| itself, and |A||B| too: adding 2 γ_k(2^-53) covers both.
double error_bound(Arithmetic arithmetic, std::int64_t k) {
  const double reference = 2 * gamma_n(k, std::ldexp(1.0, -53));
  const double sums = gamma_n(sum_steps(arithmetic, k), unit_roundoff(arithmetic));
  const double u_out = output_roundoff(arithmetic);
  if (block_scaled(arithmetic)) {
    const double promoted = gamma_n(ceil_div(k, kFp8BlockK), std::ldexp(1.0, -24));
    return (1 + sums) * (1 + promoted) * (1 + u_out) - 1 + reference;
  }
  if (judged_on_dequantised_inputs(arithmetic))
    return (1 + sums) * std::pow(1 + std::ldexp(1.0, -24), 3) * (1 + u_out) - 1 + reference;
  const double u_in = input_roundoff(arithmetic);
  if (u_in == 0) return sums + reference;
  return (1 + u_in) * (1 + u_in) * (1 + sums) * (1 + u_out) - 1 + reference;
}

namespace {

// The operands widened to double, and an empty reference of their size.
struct Widened {
  std::vector<double> a, b;
  Reference r;
};
Widened widen(const Operands& ops) {
  const Dims d = ops.dims();
  if (ops.b.shape().rows != d.k || ops.a.type() != ops.b.type())
    throw std::invalid_argument("reference: A is " + ops.a.shape().str() + ", B " + ops.b.shape().str());
  const auto c_size = static_cast<std::size_t>(d.m * d.n);
  return {matrix::dispatch(ops.a.type(), [&](auto tag) { return widened<typename decltype(tag)::type>(ops.a); }),
          matrix::dispatch(ops.b.type(), [&](auto tag) { return widened<typename decltype(tag)::type>(ops.b); }),
          Reference{d, std::vector<double>(c_size), std::vector<double>(c_size), ""}};
}

}  // namespace

Reference reference_by_loop(const Operands& ops) {
  Widened w = widen(ops);
  Reference& r = w.r;
  const Dims d = r.dims;
  r.method = "blocked OpenMP loop";
  // Row i of C is a sum of the rows of B weighted by row i of A; the inner loop is a contiguous
  // axpy the compiler vectorises. Blocks of kRows rows of C and kBlock x kBlock of B keep the block
  // of B (512 KiB) in a core's cache while kRows rows use it.
  constexpr std::int64_t kRows = 16, kBlock = 256;
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t i0 = 0; i0 < d.m; i0 += kRows)
    for (std::int64_t p0 = 0; p0 < d.k; p0 += kBlock)
      for (std::int64_t j0 = 0; j0 < d.n; j0 += kBlock) {
        const std::int64_t i1 = std::min(i0 + kRows, d.m), p1 = std::min(p0 + kBlock, d.k), j1 = std::min(j0 + kBlock, d.n);
        for (std::int64_t i = i0; i < i1; ++i) {
          double* c = r.c.data() + i * d.n;
          double* s = r.abs_ab.data() + i * d.n;
          for (std::int64_t p = p0; p < p1; ++p) {
            const double x = w.a[static_cast<std::size_t>(i * d.k + p)], ax = std::fabs(x);
            const double* row = w.b.data() + p * d.n;
            for (std::int64_t j = j0; j < j1; ++j) {
              c[j] += x * row[j];
              s[j] += ax * std::fabs(row[j]);
            }
          }
        }
      }
  return std::move(w.r);
}

Reference reference(const Operands& ops) {
#if GPGPU_HAVE_OPENBLAS
  Widened w = widen(ops);
  Reference& r = w.r;
  const Dims d = r.dims;
  r.method = "OpenBLAS dgemm";
  const auto m = static_cast<blasint>(d.m), n = static_cast<blasint>(d.n), k = static_cast<blasint>(d.k);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, w.a.data(), k, w.b.data(), n, 0.0, r.c.data(), n);
  for (double& x : w.a) x = std::fabs(x);
  for (double& x : w.b) x = std::fabs(x);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, w.a.data(), k, w.b.data(), n, 0.0, r.abs_ab.data(), n);
  return std::move(w.r);
#else
  return reference_by_loop(ops);
#endif
}

Verification compare(const HostMatrix& got, const Reference& ref, Arithmetic arithmetic) {
  if (got.shape() != ref.dims.c())
    throw std::invalid_argument("compare: a " + got.shape().str() + " result for C of " + ref.dims.c().str());
  const double gamma_k = error_bound(arithmetic, ref.dims.k);
  return matrix::dispatch(got.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return compare_within<T>(got.as<T>(), ref.c, ref.abs_ab, gamma_k);
  });
}

HostMatrix naive_product(const Operands& ops) {
  const Dims d = ops.dims();
  return matrix::dispatch(ops.a.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::span<const T> a = ops.a.as<T>(), b = ops.b.as<T>();
    std::vector<T> c(static_cast<std::size_t>(d.m * d.n));
    for (std::int64_t i = 0; i < d.m; ++i)
      for (std::int64_t j = 0; j < d.n; ++j) {
        T sum = 0;
        for (std::int64_t p = 0; p < d.k; ++p) sum += a[static_cast<std::size_t>(i * d.k + p)] * b[static_cast<std::size_t>(p * d.n + j)];
        c[static_cast<std::size_t>(i * d.n + j)] = sum;
      }
    return HostMatrix(d.c(), std::move(c));
  });
}

}  // namespace gpgpu::blas
