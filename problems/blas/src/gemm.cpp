#include "gpgpu/blas/gemm.hpp"

#include "gpgpu/blas/bound.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
    case Arithmetic::fp8_blocks_bf16_c: return std::ldexp(1.0, 1 - kFp8AccumulatorBits);  // each cut: see error_bound
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

// The rounding steps of the sums: one per product and sum, or, in the FP8 accumulator, the k-steps
// of kFp8KStep products it adds before it restarts from 0 (all of k per tensor; with block scaling
// one block of kFp8BlockK, at most 4).
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

// The FP8 accumulator's bound per cut of a k-step, relative to the step's addends: δ = c u (1 + u),
// c = kFp8CutsPerStep (see error_bound).
double fp8_step_error(Arithmetic a) {
  const double u = unit_roundoff(a);
  return kFp8CutsPerStep * u * (1 + u);
}

std::int64_t max_k(Arithmetic a) {
  if (!judged_on_dequantised_inputs(a) || block_scaled(a)) return kMaxK;
  // Per tensor the accumulator's bound compounds as (1 + δ)^(⌈k/32⌉ - 1) (see error_bound); past a
  // factor of 4 (k = 10720 at p = 14) it says little: at k = 32768 it is 69, and the bound of
  // uniform random data of both signs exceeds |Â||B̂| itself.
  const double delta = fp8_step_error(a);
  return kFp8KStep * (1 + static_cast<std::int64_t>(std::log(4.0) / std::log1p(delta)));
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
//   With C rounded to bfloat16 at the end (bf16_bf16_c: chapter 10b's step 11), one rounding to
//   nearest more, (1 + 2^-8): (1 + u_in)^2 (1 + γ_k(2^-23))(1 + u_out) - 1.
// - FP8 (E4M3, one scale per tensor): the reference multiplies the dequantised inputs s·e4m3(x/s)
//   (fp8.hpp), exact in double, so the inputs' rounding (u_in = 2^-4 relative in E4M3's normal
//   range, absolute below it) and the scale's own rounding are in the reference, not in the bound.
//   The products of two E4M3 values (8 significant bits) are exact. What remains:
//   * the accumulator. The model: a k-step adds its 32 products to the running sum acc_s by the
//     mechanism Fasi, Higham, Mikaitis and Pranesh (2021) found on V100, T4 and A100 tensor cores
//     (FP16 and TF32, groups of 4 or 8 products with the running sum): every addend is aligned to
//     the largest exponent among them and cut to the accumulator's p = kFp8AccumulatorBits bits
//     there, the cut addends are summed, and the result is normalised to p bits. Here it is
//     assumed for Hopper's FP8 with one group per 32-product wgmma k-step, which no test measures
//     (groups of 16, 8 or 4 products would make c about 36, 40 or 48) (DeepSeek-V3's report, sec. 3.3.2, saw about 14 bits kept on Hopper;
//     chapter 10c's GPU test of the FP8 accumulator measures p, and this bound holds only while the
//     measured p is at least the constant). A first model, one cut of the step's result alone,
//     γ_⌈k/32⌉(2^(1-p)), broke on the device at k = 64: an error of 2.4 u |Â||B̂|, more than
//     its two cuts allow. Cutting every addend explains it: a small product beside a large one
//     loses its bits at the large one's exponent, and when products of both signs cancel, the
//     result can be far smaller than the largest addend whose exponent set the cut.
//     Per k-step s, with u = 2^(1-p), M_s the largest addend and S_s = Σ |a||b| over the step's
//     products: each of the 33 addends loses less than u M_s (a unit in the p-th bit of the largest);
//     the sum of the cut addends is then within 33 u M_s of the exact one, and since every cut is
//     toward zero the sum T of the cut addends has |T| <= |acc_s| + S_s, so the normalisation
//     loses less than u (|acc_s| + S_s) more. With
//     M_s <= |acc_s| + S_s the step adds at most δ (|acc_s| + S_s), δ = c u (1 + u), c = 34
//     (kFp8CutsPerStep: 32 products, the running sum, the normalisation; 34 u^2 covers 33 u^2).
//     Counting every addend is conservative: the largest loses nothing, nor does an 8-bit product
//     within 6 binades of it, but the data decide which those are. The running sum is the exact partial sum
//     C_s of the steps before s (C_0 = 0) plus the error E_s so far, |acc_s| <= |C_s| + E_s, so
//         E_{s+1} <= E_s + δ (|C_s| + E_s + S_s) = (1 + δ) E_s + δ (|C_s| + S_s),   E_0 = 0,
//     and after N = ⌈k/32⌉ steps E_N <= Σ_s δ (1 + δ)^(N-1-s) (|C_s| + S_s)
//                                    <= δ (1 + δ)^(N-1) (Q + |Â||B̂|),   Q = Σ_s |C_s|,
//     with Σ_s S_s = |Â||B̂|. The compounding (1 + δ)^(N-1) is kept: it is 2.9 at k = 8192, where
//     N δ = 1.06. Q depends on the data: the reference computes it per element (fp8_reference, by
//     slabs of 32 of k). For random data of both signs |C_s| grows as the square root of the terms
//     summed, so Q/|Â||B̂| grows as √k: the bound is not a fixed multiple of |Â||B̂|, and past
//     max_k (the compounding above 4) it says little. Kernels that promote their partial sums to
//     FP32 are only more accurate, and so is cuBLASLt.
//   * the epilogue: the scale s_a s_b multiplied in float, then C times it: (1 + 2^-24)^2, and one
//     more (1 + 2^-24) for a library that folds alpha into the same product;
//   * C in BF16 (fp8_bf16_c): one rounding to nearest, (1 + 2^-8).
//   With η = (1 + 2^-24)^3 (1 + u_out) - 1 the epilogue turns a sum within E of C into one within
//   (1 + η) E + η |C| <= (1 + η) E + η |Â||B̂|. Together, per element:
//       |C - Ĉ| <= (1 + η) δ (1 + δ)^(N-1) (Q + |Â||B̂|) + η |Â||B̂|.
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
//   * The partial sum of one block: the accumulator above, restarted from 0, over at most
//     n = min(⌈k/32⌉, 4) k-steps: δ (1 + δ)^(n-1) (Q_b + |Â||B̂|_b) with Q_b the block's own
//     running sums; over all blocks δ (1 + δ)^(n-1) (Q + |Â||B̂|), Q = Σ_b Q_b. The compounding
//     no longer grows with k, as 256 k-steps of one sum become 64 blocks of 4.
//   * Its promotion: s_a · s_b is a product of powers of two, exact while it stays above 2^-126
//     (where the two blocks' largest magnitudes have a product above 2^-108), and so is P times it,
//     so the only rounding is the FP32 add (an FMA or not): the recursive sum of the ⌈k/128⌉
//     promoted partial sums, γ_⌈k/128⌉(2^-24) of Σ_b |P̂_b| <= |Â||B̂| + E (the CUDA cores' FP32
//     adds round to nearest).
//   * No epilogue scale (the scales are in the loop); C in BF16: (1 + u_out).
//   With η = (1 + γ_⌈k/128⌉(2^-24))(1 + u_out) - 1 the same form as per tensor:
//       |C - Ĉ| <= (1 + η) δ (1 + δ)^(n-1) (Q + |Â||B̂|) + η |Â||B̂|.
// - The reference is computed in FP64 (from the exact inputs, widened), so it may be off by
//   γ_k(2^-53)|A||B| itself, and |A||B| too: adding 2 γ_k(2^-53) covers both. For FP8, each of
//   Q's at most ⌈k/32⌉ partial sums is off by at most γ_k(2^-53)|Â||B̂| as well: the factor
//   1 + 2 (⌈k/32⌉ + 1) γ_k(2^-53) on the accumulator's |Â||B̂| term covers them and its own error.
double error_bound(Arithmetic arithmetic, std::int64_t k) {
  if (judged_on_dequantised_inputs(arithmetic))
    throw std::invalid_argument("error_bound: the FP8 bound of an element depends on its partial sums (element_bound)");
  const double reference = 2 * gamma_n(k, std::ldexp(1.0, -53));
  const double sums = gamma_n(sum_steps(arithmetic, k), unit_roundoff(arithmetic));
  const double u_in = input_roundoff(arithmetic);
  if (u_in == 0) return sums + reference;
  return (1 + u_in) * (1 + u_in) * (1 + sums) * (1 + output_roundoff(arithmetic)) - 1 + reference;
}

ElementBound element_bound(Arithmetic arithmetic, std::int64_t k) {
  if (!judged_on_dequantised_inputs(arithmetic)) return {error_bound(arithmetic, k), 0};
  if (k < 1 || k > max_k(arithmetic))
    throw std::invalid_argument("error bound: k = " + std::to_string(k) + " is past the FP8 bound's max_k, no meaningful bound");
  const double reference = 2 * gamma_n(k, std::ldexp(1.0, -53));
  const double delta = fp8_step_error(arithmetic);
  const double accumulator = delta * std::pow(1 + delta, static_cast<double>(sum_steps(arithmetic, k) - 1));
  const double outside = block_scaled(arithmetic) ? 1 + gamma_n(ceil_div(k, kFp8BlockK), std::ldexp(1.0, -24))
                                                  : std::pow(1 + std::ldexp(1.0, -24), 3);
  const double eta = outside * (1 + output_roundoff(arithmetic)) - 1;
  const double partial_sums_error = 2 * static_cast<double>(ceil_div(k, kFp8KStep) + 1) * gamma_n(k, std::ldexp(1.0, -53));
  return {(1 + eta) * accumulator * (1 + partial_sums_error) + eta + reference, (1 + eta) * accumulator};
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
          Reference{d, std::vector<double>(c_size), std::vector<double>(c_size), "", {}}};
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

namespace {

// c += a[:, p0:p1] · b[p0:p1, :] for row-major a (m x k) and b (k x n): one slab of k, by OpenBLAS's
// dgemm (beta = 1) or by a loop over rows (a contiguous axpy per term, rows in parallel).
using SlabProduct = void (*)(const std::vector<double>& a, const std::vector<double>& b, const Dims& d, std::int64_t p0,
                             std::int64_t p1, double* c);
void slab_by_loop(const std::vector<double>& a, const std::vector<double>& b, const Dims& d, std::int64_t p0, std::int64_t p1, double* c) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < d.m; ++i) {
    double* row_c = c + i * d.n;
    for (std::int64_t p = p0; p < p1; ++p) {
      const double x = a[static_cast<std::size_t>(i * d.k + p)];
      const double* row_b = b.data() + p * d.n;
      for (std::int64_t j = 0; j < d.n; ++j) row_c[j] += x * row_b[j];
    }
  }
}
#if GPGPU_HAVE_OPENBLAS
void slab_by_dgemm(const std::vector<double>& a, const std::vector<double>& b, const Dims& d, std::int64_t p0, std::int64_t p1, double* c) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(d.m), static_cast<blasint>(d.n),
              static_cast<blasint>(p1 - p0), 1.0, a.data() + p0, static_cast<blasint>(d.k), b.data() + p0 * d.n,
              static_cast<blasint>(d.n), 1.0, c, static_cast<blasint>(d.n));
}
#endif

// y += |x| (or y += x), element by element, in parallel.
void add_to(std::vector<double>& y, const std::vector<double>& x, bool magnitudes) {
  const auto size = static_cast<std::int64_t>(y.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < size; ++i) y[static_cast<std::size_t>(i)] += magnitudes ? std::fabs(x[static_cast<std::size_t>(i)]) : x[static_cast<std::size_t>(i)];
}

// The FP8 reference (see error_bound): C slab by slab of kFp8KStep, the running sum of each run of
// `run` of k (all of k per tensor, kFp8BlockK with block scales) added in magnitude to Q before each
// slab but a run's first; then |A||B| as one product of the magnitudes.
Reference fp8_reference_with(const Operands& dequantised, Arithmetic arithmetic, SlabProduct slab, std::string method) {
  if (!judged_on_dequantised_inputs(arithmetic))
    throw std::invalid_argument("fp8_reference: " + std::string(arithmetic_name(arithmetic)) + " is no FP8 arithmetic");
  Widened w = widen(dequantised);
  Reference& r = w.r;
  const Dims d = r.dims;
  r.method = std::move(method) + " by slabs of " + std::to_string(kFp8KStep) + " of k";
  r.partial_sums.assign(r.c.size(), 0.0);
  const std::int64_t run = block_scaled(arithmetic) ? kFp8BlockK : d.k;
  std::vector<double> running(r.c.size());
  for (std::int64_t r0 = 0; r0 < d.k; r0 += run) {
    std::fill(running.begin(), running.end(), 0.0);
    const std::int64_t r1 = std::min(r0 + run, d.k);
    for (std::int64_t p0 = r0; p0 < r1; p0 += kFp8KStep) {
      if (p0 > r0) add_to(r.partial_sums, running, true);
      slab(w.a, w.b, d, p0, std::min(p0 + kFp8KStep, r1), running.data());
    }
    add_to(r.c, running, false);
  }
  for (double& x : w.a) x = std::fabs(x);
  for (double& x : w.b) x = std::fabs(x);
  slab(w.a, w.b, d, 0, d.k, r.abs_ab.data());
  return std::move(w.r);
}

}  // namespace

Reference fp8_reference_by_loop(const Operands& dequantised, Arithmetic arithmetic) {
  return fp8_reference_with(dequantised, arithmetic, slab_by_loop, "OpenMP loop");
}

Reference fp8_reference(const Operands& dequantised, Arithmetic arithmetic) {
#if GPGPU_HAVE_OPENBLAS
  return fp8_reference_with(dequantised, arithmetic, slab_by_dgemm, "OpenBLAS dgemm");
#else
  return fp8_reference_by_loop(dequantised, arithmetic);
#endif
}

Verification compare(const HostMatrix& got, const Reference& ref, Arithmetic arithmetic) {
  if (got.shape() != ref.dims.c())
    throw std::invalid_argument("compare: a " + got.shape().str() + " result for C of " + ref.dims.c().str());
  const bool fp8 = judged_on_dequantised_inputs(arithmetic);
  if (fp8 && ref.partial_sums.size() != ref.c.size())
    throw std::invalid_argument("compare: an FP8 result needs the partial sums of fp8_reference");
  const ElementBound bound = element_bound(arithmetic, ref.dims.k);
  Verification v = matrix::dispatch(got.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (!fp8) return compare_within<T>(got.as<T>(), ref.c, ref.abs_ab, bound.abs_ab);
    // Each element against its own bound: the ratio's limit is 1.
    return compare_scaled<T>(
        got.as<T>(), ref.c, [&](std::size_t i) { return bound.abs_ab * ref.abs_ab[i] + bound.partial_sums * ref.partial_sums[i]; }, 1.0);
  });
  if (fp8 && v.non_finite == 0) {
    char line[200];
    std::snprintf(line, sizeof line, "rel. error %.2e; worst element %.2g of its own bound (index %lld); max |C - Ĉ| / |Â||B̂| %.2e",
                  v.rel_l2, v.rel_max, static_cast<long long>(v.worst_index), worst_relative_error(got, ref));
    v.basis = line;
  }
  return v;
}

double worst_relative_error(const HostMatrix& got, const Reference& ref) {
  if (got.shape() != ref.dims.c())
    throw std::invalid_argument("worst_relative_error: a " + got.shape().str() + " result for C of " + ref.dims.c().str());
  return matrix::dispatch(got.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return compare_within<T>(got.as<T>(), ref.c, ref.abs_ab, 0).rel_max;
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
