// Chapter 10b's variants on the GPU (label cuda; skipped without one): every kernel and cuBLAS peer
// within its inputs' bound (TF32 or BF16, problems/blas gemm.cpp) of the FP64 reference, at the
// awkward sizes (tails in every dimension), the aligned ones (the 16-byte paths) and the large
// ones, C poisoned before every run; the double run is refused, with a reason, by every variant; a
// C written in BF16 (step 13) is rounded to nearest even.
// Then the FP8 accumulator: how many bits it keeps (steps 11 and 12), and both FP8 scalings within
// their per-element bounds against k.
// compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "variants.hpp"

namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

std::vector<gpgpu::blas::GemmVariant> kernels_then_cublas() {
  std::vector<gpgpu::blas::GemmVariant> v = ch10b::kernel_variants();
#if GPGPU_HAVE_WGMMA
  std::ranges::move(ch10b::wgmma_variants(), std::back_inserter(v));
  std::ranges::move(ch10b::tma_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLAS
  std::ranges::move(ch10b::cublas_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLASLT
  std::ranges::move(ch10b::cublaslt_variants(), std::back_inserter(v));
#endif
  std::ranges::move(ch10b::fastcu_variants(), std::back_inserter(v));  // empty unless built
  return v;
}

// One suite of checks per variant, on one CUDA session opened for all of them.
class TensorCoreVariant : public ::testing::TestWithParam<gpgpu::blas::GemmVariant> {
 protected:
  static void SetUpTestSuite() { gpu_ = gpgpu::cuda::opener()->open(); }
  static void TearDownTestSuite() { gpu_.reset(); }

  // The variant within its bound at every size of `sizes` in float that it accepts; sizes it
  // refuses (TMA's k, a Hopper-only step elsewhere) are passed over, and if it refuses them all the
  // test skips with the last reason.
  static void within_bound_at(const std::vector<Dims>& sizes) {
    const gpgpu::blas::GemmVariant& v = GetParam();
    std::optional<std::string> refused;
    int ran = 0;
    for (const Dims& d : sizes) {
      if ((refused = v.limitation({d, ElementType::f32}, *gpu_))) continue;
      EXPECT_TRUE(checks::runs_within_bound(v, d, ElementType::f32, *gpu_));
      ++ran;
    }
    if (ran == 0 && refused) GTEST_SKIP() << *refused;
  }
  static inline std::unique_ptr<gpgpu::Session> gpu_;
};

TEST_P(TensorCoreVariant, WithinTheBoundAtAwkwardAndAlignedSizes) {
  within_bound_at(checks::awkward_dims());
  within_bound_at(checks::aligned_dims());
}
TEST_P(TensorCoreVariant, WithinTheBoundAtLargeSizes) { within_bound_at(checks::large_dims()); }
// Square products of multiples of 256, the only ones some rows take (fastcu_bf16_bf16c): one
// cluster's tile, 3 x 3 of them (an odd count, fewer tiles than clusters), and 9 x 9 (more tiles
// than fast.cu's 64 clusters and the 66 an H100 holds, so that clusters take several).
TEST_P(TensorCoreVariant, WithinTheBoundAtSquareMultiplesOf256) {
  within_bound_at({{256, 256, 256}, {768, 768, 768}, {2304, 2304, 2304}});
}
// For compute-sanitizer (its tools slow every launch down many times): one element, partial tiles
// in every dimension with k past several steps, the 16-byte paths of both input types, one row.
TEST_P(TensorCoreVariant, WithinTheBoundAtSanitizerSizes) {
  within_bound_at({{1, 1, 1}, {33, 17, 130}, {67, 129, 93}, {131, 136, 72}, {1, 1000, 3}});
}
// Step 10 cuts tiles between clusters only where the pairs of tiles outnumber the clusters the GPU
// holds (66 on an H100): 5 x 14 pairs, partial in m, n and k, with a few k-steps per cluster (a
// range of 4 or 5 BF16 k-steps cuts most tiles) and with many.
TEST_P(TensorCoreVariant, CutTilesWithinTheBoundAtSanitizerSizes) {
  if (GetParam().info.name.rfind("stream_k", 0) != 0) GTEST_SKIP() << "only stream-K cuts tiles";
  within_bound_at({{1100, 3500, 200}, {1100, 3500, 1000}});
}
// The persistent steps (8 on) deal tiles to a grid of as many blocks or clusters as the GPU holds;
// at the sizes above every block gets at most one tile, so their loop over rounds never runs under
// compute-sanitizer. 2200 x 3500 is 18 x 14 tiles of 128 x 256 (252 > 132 SMs) and 9 x 14 pairs
// (126 > 66 clusters): every grid takes two rounds, partial tiles in m and n; k = 64, a few k-steps,
// keeps the tools' time down.
TEST_P(TensorCoreVariant, SeveralRoundsWithinTheBoundAtSanitizerSizes) {
  const std::string& name = GetParam().info.name;
  const bool persistent = std::ranges::any_of(std::array{"persistent_", "cluster_", "stream_k_", "fp8_", "tma_store_", "fastcu_"},
                                              [&](const char* prefix) { return name.rfind(prefix, 0) == 0; });
  if (!persistent) GTEST_SKIP() << "one tile per block at every size: no rounds";
  within_bound_at({{2200, 3500, 64}});
}
// What the tensor cores do with a float that has more than TF32's 10 mantissa bits, and that it
// stays within the bound's input error u_in = 2^-11 (to nearest; cut, it would not). A (128 x 64) holds a = 1 + 3·2^-12 (mantissa
// bits 11 and 12 set) everywhere, B (64 x 128) ones, so every element of C is 64a, exact in FP32
// sums. Rounded to nearest, a becomes 1 + 2^-10 (C = 64 + 2^-4); cut to its top 19 bits it becomes
// 1 (C = 64); read in full, C = 64 + 3·2^-6. 128 x 128 x 64 rather than one element, so that the
// libraries take their tensor-core kernels as they would for a real product. The test prints which
// each TF32 variant did (the chapter's README quotes it) and fails if any element is off by more
// than u_in of the product.
//! [tf32_inputs_test]
TEST_P(TensorCoreVariant, ReadsFloatsWithinTheTf32InputError) {
  const gpgpu::blas::GemmVariant& v = GetParam();
  if (!v.tf32) GTEST_SKIP() << "BF16 inputs are rounded once by the host code, not by the tensor cores";
  const Dims d{128, 128, 64};
  if (auto why = v.limitation({d, ElementType::f32}, *gpu_)) GTEST_SKIP() << *why;
  const float a = 1.0f + 3.0f * std::ldexp(1.0f, -12);
  gpgpu::blas::Operands in{gpgpu::matrix::HostMatrix({d.m, d.k}, std::vector<float>(static_cast<std::size_t>(d.m * d.k), a)),
                           gpgpu::matrix::HostMatrix({d.k, d.n}, std::vector<float>(static_cast<std::size_t>(d.k * d.n), 1.0f))};
  std::unique_ptr<gpgpu::blas::GemmOperation> op = v.make({d, ElementType::f32}, *gpu_);
  op->upload(in);
  op->run(1);
  const gpgpu::matrix::HostMatrix c = op->download();
  const double exact = 64.0 * a;
  for (float x : c.as<float>()) ASSERT_LE(std::abs(x - exact), std::ldexp(exact, -11)) << x;
  const float c0 = c.as<float>()[0];
  const char* what = c0 == 64.0f                          ? "cut to TF32 (the top 19 bits)"
                     : c0 == 64.0f + std::ldexp(1.0f, -4)  ? "rounded to nearest TF32"
                     : c0 == static_cast<float>(exact)      ? "read in full (no TF32 conversion)"
                                                           : "something else";
  std::cout << v.info.name << ": a = 1 + 3*2^-12 was " << what << " (C = " << std::hexfloat << c0 << std::defaultfloat << ")\n";
}
//! [tf32_inputs_test]
// C rounded to BF16 (step 13's tma_store_bf16_bf16c, cuBLAS's cublas_bf16_bf16c): rounded to
// nearest, ties to even, as the bound's u_out = 2^-8 assumes of a rounding to nearest. A = 1 and
// B = 1 + 2^-7 (both BF16) at k = 3 make every element of C 3 + 3·2^-7 = 3.0234375, exact in the
// FP32 sums and half-way between the BF16 neighbours 3.015625 and 3.03125: to nearest even gives
// 3.03125, a cut 3.015625. 200 x 300 (partial tiles, and k = 3 in padded rows) rather than one
// element. Our kernel must round to nearest even; the library's choice is printed.
TEST_P(TensorCoreVariant, RoundsCToNearestEvenBf16) {
  const gpgpu::blas::GemmVariant& v = GetParam();
  if (!v.bf16 || !v.bf16_c) GTEST_SKIP() << "C in FP32";
  const Dims d{200, 300, 3};
  if (auto why = v.limitation({d, ElementType::f32}, *gpu_)) GTEST_SKIP() << *why;
  const float b = 1.0f + std::ldexp(1.0f, -7);
  gpgpu::blas::Operands in{gpgpu::matrix::HostMatrix({d.m, d.k}, std::vector<float>(static_cast<std::size_t>(d.m * d.k), 1.0f)),
                           gpgpu::matrix::HostMatrix({d.k, d.n}, std::vector<float>(static_cast<std::size_t>(d.k * d.n), b))};
  std::unique_ptr<gpgpu::blas::GemmOperation> op = v.make({d, ElementType::f32}, *gpu_);
  op->upload(in);
  op->run(1);
  const gpgpu::matrix::HostMatrix c = op->download();
  const float c0 = c.as<float>()[0];
  const char* what = c0 == 3.03125f ? "rounded to nearest even" : c0 == 3.015625f ? "cut" : "something else";
  std::cout << v.info.name << ": C = 3 + 3*2^-7 was " << what << " (C = " << c0 << ")\n";
  if (v.library) return;
  for (float x : c.as<float>()) ASSERT_EQ(x, 3.03125f);
}
TEST_P(TensorCoreVariant, RefusesTheDoubleRun) {
  EXPECT_TRUE(GetParam().limitation({{64, 64, 64}, ElementType::f64}, *gpu_).has_value());
}

INSTANTIATE_TEST_SUITE_P(Ch10b, TensorCoreVariant, ::testing::ValuesIn(kernels_then_cublas()),
                         [](const auto& info) { return info.param.info.name; });

// Steps 11 and 12 on inputs made to show how many bits the FP8 tensor cores keep, and the FP8 bounds
// against k. One CUDA session for the suite, as above.
class Fp8Accumulator : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gpu_ = gpgpu::cuda::opener()->open(); }
  static void TearDownTestSuite() { gpu_.reset(); }

  // The variant `name` of the chapter's list, or a skip with the reason it cannot run at `d`.
  static std::optional<gpgpu::blas::GemmVariant> runnable(const std::string& name, const Dims& d, std::string& why) {
    for (gpgpu::blas::GemmVariant& v : kernels_then_cublas())
      if (v.info.name == name) {
        if (auto refused = v.limitation({d, ElementType::f32}, *gpu_)) {
          why = name + ": " + *refused;
          return std::nullopt;
        }
        return v;
      }
    why = name + " was not built (no sm_90a code)";
    return std::nullopt;
  }
  static gpgpu::matrix::HostMatrix product(const gpgpu::blas::GemmVariant& v, const gpgpu::blas::Operands& in) {
    const Dims d = in.dims();
    std::unique_ptr<gpgpu::blas::GemmOperation> op = v.make({d, ElementType::f32}, *gpu_);
    op->upload(in);
    op->run(1);
    return op->download();
  }
  static inline std::unique_ptr<gpgpu::Session> gpu_;
};

// How many significant bits the FP8 accumulator keeps. Row i of C is one large product followed by
// small ones, one per `wgmma` (32 of k) so that how the tensor core groups a k32 step's products
// cannot matter: A's row holds 448 at k = 0 and d_q = 2^(18 - q) at k = 128, 160, ..., 992 (zeros
// elsewhere), B's columns 448 at k = 0 and 1 at the same k. So C = L + 28 d_q with L = 448² =
// 1.53125 · 2^17 (= 2^17 + 2^16 + 2^12), and each of the 28 `wgmma` after the first block adds one
// product d_q, exactly the last bit of L at q bits. An accumulator that keeps p bits (cut or rounded
// to nearest even: L's bit there is 0, so a tie stays L) keeps every d_q with q <= p and loses every
// one with q > p: row q reads L + 28 d_q or L, and the largest q kept is p (rows after it are
// printed with the share of 28 d_q they kept, whatever the accumulator did there). q runs from 10
// to 27 (d_q from 256 to 2^-9, all E4M3 values with scale 1: A's and B's largest is 448; with block
// scales every block's values are powers of two times 256 or 448, also exact). Step 11 sums all of
// k in the accumulator: it measures p. Step 12 adds each block of 128 into FP32 from 0 (its four
// products per block, 4 d_q, are exact): it keeps every d_q an FP32 sum keeps (q <= 26), so it
// loses less.
//! [fp8_accumulator_test]
TEST_F(Fp8Accumulator, KeepsBetween13And24BitsAndStep12LosesLess) {
  constexpr int kFirstQ = 10, kLastQ = 27;
  const Dims d{kLastQ - kFirstQ + 1, 16, 1024};
  std::string why;
  const auto step11 = runnable("fp8_tensor", d, why);
  if (!step11) GTEST_SKIP() << why;
  const auto step12 = runnable("fp8_block", d, why);
  std::vector<float> a(static_cast<std::size_t>(d.m * d.k), 0.0f), b(static_cast<std::size_t>(d.k * d.n), 0.0f);
  for (std::int64_t i = 0; i < d.m; ++i) {
    a[static_cast<std::size_t>(i * d.k)] = 448;
    for (std::int64_t l = 128; l < d.k; l += 32) a[static_cast<std::size_t>(i * d.k + l)] = std::ldexp(1.0f, 18 - kFirstQ - static_cast<int>(i));
  }
  for (std::int64_t j = 0; j < d.n; ++j) {
    b[static_cast<std::size_t>(j)] = 448;
    for (std::int64_t l = 128; l < d.k; l += 32) b[static_cast<std::size_t>(l * d.n + j)] = 1.0f;
  }
  const gpgpu::blas::Operands in{gpgpu::matrix::HostMatrix({d.m, d.k}, std::move(a)), gpgpu::matrix::HostMatrix({d.k, d.n}, std::move(b))};
  const double large = 448.0 * 448.0;
  const auto exact = [&](std::int64_t i) { return large + 28 * std::ldexp(1.0, 18 - kFirstQ - static_cast<int>(i)); };
  const gpgpu::matrix::HostMatrix c11 = product(*step11, in);
  // p: the last q of the rows from q = 10 on whose every element is L + 28 d_q; each row printed as
  // the share of its 28 d_q that C kept.
  int p = kFirstQ - 1;
  for (std::int64_t i = 0; i < d.m; ++i) {
    const int q = kFirstQ + static_cast<int>(i);
    bool kept = true;
    for (std::int64_t j = 0; j < d.n; ++j) kept = kept && c11.as<float>()[static_cast<std::size_t>(i * d.n + j)] == exact(i);
    if (kept && p == q - 1) p = q;
    EXPECT_TRUE(!kept || p == q) << "q = " << q << " kept after q = " << p + 1 << " was not: no single p explains it";
    const double x = c11.as<float>()[static_cast<std::size_t>(i * d.n)];
    std::cout << "fp8_tensor: q = " << q << ", C - L = " << (x - large) / (exact(i) - large) << " of 28 d_q\n";
  }
  std::cout << "fp8_tensor: the FP8 accumulator keeps p = " << p
            << " significant bits (a wgmma's 2^(e-q+1) added to a sum of exponent e is kept for every q <= p)\n";
  EXPECT_GE(p, 13);
  EXPECT_LE(p, 24);
  EXPECT_GE(p, gpgpu::blas::kFp8AccumulatorBits) << "the FP8 bound assumes kFp8AccumulatorBits; the device keeps fewer";
  if (!step12) GTEST_SKIP() << why;
  const gpgpu::matrix::HostMatrix c12 = product(*step12, in);
  double lost11 = 0, lost12 = 0;
  for (std::int64_t i = 0; i < d.m; ++i)
    for (std::int64_t j = 0; j < d.n; ++j) {
      const double e11 = std::abs(c11.as<float>()[static_cast<std::size_t>(i * d.n + j)] - exact(i));
      const double e12 = std::abs(c12.as<float>()[static_cast<std::size_t>(i * d.n + j)] - exact(i));
      EXPECT_LE(e12, e11) << "row q = " << kFirstQ + i;
      if (kFirstQ + i <= 24) {
        EXPECT_EQ(e12, 0) << "row q = " << kFirstQ + i << ": within FP32's 24 bits, step 12 is exact";
      }
      lost11 += e11;
      lost12 += e12;
    }
  std::cout << "fp8_block: loses " << lost12 << " of the small products' sums where fp8_tensor loses " << lost11 << "\n";
  EXPECT_LT(lost12, lost11);
}
//! [fp8_accumulator_test]

// Both scalings within their bounds with margin (every element within half its own bound) at several
// k on random inputs of both signs, the error printed against k (rel. max: the worst
// |C - Ĉ| / (|Â||B̂|); share: the worst element's error over its own bound). Per tensor only up to
// max_k: past it the accumulator's bound says little (gemm.cpp), and step 11 refuses that k.
TEST_F(Fp8Accumulator, BothScalingsWithinHalfTheirBoundsAtEveryK) {
  int ran = 0;
  std::string why;
  for (const std::int64_t k : {std::int64_t{64}, std::int64_t{128}, std::int64_t{1024}, std::int64_t{4096}, std::int64_t{8192}, std::int64_t{32768}}) {
    const Dims d{256, 256, k};
    for (const char* name : {"fp8_tensor", "fp8_tensor_bf16c", "fp8_block", "fp8_block_bf16c"}) {
      const auto v = runnable(name, d, why);
      if (!v) continue;
      const gpgpu::blas::Arithmetic arithmetic = v->arithmetic(ElementType::f32);
      const gpgpu::blas::Operands& in = checks::problem(d, ElementType::f32).first;
      const gpgpu::blas::Reference& ref = checks::reference_for(d, ElementType::f32, arithmetic);
      const gpgpu::matrix::HostMatrix c = product(*v, in);
      const gpgpu::Verification check = gpgpu::blas::compare(c, ref, arithmetic);
      std::cout << "fp8 error against k: " << name << " k = " << k << " rel. max " << gpgpu::blas::worst_relative_error(c, ref)
                << " share of its own bound " << check.rel_max << "\n";
      EXPECT_TRUE(check.pass) << name << " at k = " << k << ": " << check.summary();
      EXPECT_LE(check.rel_max, 0.5) << name << " at k = " << k << ": " << check.summary();
      ++ran;
    }
  }
  if (ran == 0) GTEST_SKIP() << why;
}

}  // namespace
