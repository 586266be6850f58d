// Chapter 10c's variants on the GPU (label cuda; skipped without one): every FP8 step and library
// row through the tensor-core rows' checks (gpgpu/blas/tensor_core_tests.hpp): within its inputs'
// bound (FP8 per tensor or per block, BF16 for the reference row) of the FP64 reference at awkward,
// aligned, large and sanitizer sizes, C poisoned before every run; several rounds of tiles; C in
// BF16 rounded to nearest even; the double run refused. Then the FP8 accumulator: how many bits it
// keeps (steps 1 and 2), and both FP8 scalings within their per-element bounds against k.
// compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/tensor_core_tests.hpp"
#include "variants.hpp"

namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

std::vector<gpgpu::blas::GemmVariant> kernels_then_libraries() {
  std::vector<gpgpu::blas::GemmVariant> v;
#if GPGPU_HAVE_WGMMA
  std::ranges::move(ch10c::fp8_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLASLT
  std::ranges::move(ch10c::cublaslt_variants(), std::back_inserter(v));
#endif
  return v;
}

}  // namespace

namespace gpgpu::blas::tensor_core_tests {
INSTANTIATE_TEST_SUITE_P(Ch10c, TensorCoreVariant, ::testing::ValuesIn(kernels_then_libraries()),
                         [](const auto& info) { return info.param.info.name; });
}  // namespace gpgpu::blas::tensor_core_tests

namespace {

// Steps 1 and 2 on inputs made to show how many bits the FP8 tensor cores keep, and the FP8 bounds
// against k. One CUDA session for the suite.
class Fp8Accumulator : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gpu_ = gpgpu::cuda::opener()->open(); }
  static void TearDownTestSuite() { gpu_.reset(); }

  // The variant `name` of the chapter's list, or a skip with the reason it cannot run at `d`.
  static std::optional<gpgpu::blas::GemmVariant> runnable(const std::string& name, const Dims& d, std::string& why) {
    for (gpgpu::blas::GemmVariant& v : kernels_then_libraries())
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
// scales every block's values are powers of two times 256 or 448, also exact). Step 1 sums all of
// k in the accumulator: it measures p. Step 2 adds each block of 128 into FP32 from 0 (its four
// products per block, 4 d_q, are exact): it keeps every d_q an FP32 sum keeps (q <= 26), so it
// loses less.
//! [fp8_accumulator_test]
TEST_F(Fp8Accumulator, KeepsBetween13And24BitsAndBlockScalingLosesLess) {
  constexpr int kFirstQ = 10, kLastQ = 27;
  const Dims d{kLastQ - kFirstQ + 1, 16, 1024};
  std::string why;
  const auto step1 = runnable("fp8_tensor", d, why);
  if (!step1) GTEST_SKIP() << why;
  const auto step2 = runnable("fp8_block", d, why);
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
  const gpgpu::matrix::HostMatrix c_tensor = product(*step1, in);
  // p: the last q of the rows from q = 10 on whose every element is L + 28 d_q; each row printed as
  // the share of its 28 d_q that C kept.
  int p = kFirstQ - 1;
  for (std::int64_t i = 0; i < d.m; ++i) {
    const int q = kFirstQ + static_cast<int>(i);
    bool kept = true;
    for (std::int64_t j = 0; j < d.n; ++j) kept = kept && c_tensor.as<float>()[static_cast<std::size_t>(i * d.n + j)] == exact(i);
    if (kept && p == q - 1) p = q;
    EXPECT_TRUE(!kept || p == q) << "q = " << q << " kept after q = " << p + 1 << " was not: no single p explains it";
    const double x = c_tensor.as<float>()[static_cast<std::size_t>(i * d.n)];
    std::cout << "fp8_tensor: q = " << q << ", C - L = " << (x - large) / (exact(i) - large) << " of 28 d_q\n";
  }
  std::cout << "fp8_tensor: the FP8 accumulator keeps p = " << p
            << " significant bits (a wgmma's 2^(e-q+1) added to a sum of exponent e is kept for every q <= p)\n";
  EXPECT_GE(p, 13);
  EXPECT_LE(p, 24);
  EXPECT_GE(p, gpgpu::blas::kFp8AccumulatorBits) << "the FP8 bound assumes kFp8AccumulatorBits; the device keeps fewer";
  if (!step2) GTEST_SKIP() << why;
  const gpgpu::matrix::HostMatrix c_block = product(*step2, in);
  double lost_tensor = 0, lost_block = 0;
  for (std::int64_t i = 0; i < d.m; ++i)
    for (std::int64_t j = 0; j < d.n; ++j) {
      const double e_tensor = std::abs(c_tensor.as<float>()[static_cast<std::size_t>(i * d.n + j)] - exact(i));
      const double e_block = std::abs(c_block.as<float>()[static_cast<std::size_t>(i * d.n + j)] - exact(i));
      EXPECT_LE(e_block, e_tensor) << "row q = " << kFirstQ + i;
      if (kFirstQ + i <= 24) {
        EXPECT_EQ(e_block, 0) << "row q = " << kFirstQ + i << ": within FP32's 24 bits, step 2 is exact";
      }
      lost_tensor += e_tensor;
      lost_block += e_block;
    }
  std::cout << "fp8_block: loses " << lost_block << " of the small products' sums where fp8_tensor loses " << lost_tensor << "\n";
  EXPECT_LT(lost_block, lost_tensor);
}
//! [fp8_accumulator_test]

// Both scalings within their bounds with margin (every element within half its own bound) at several
// k on random inputs of both signs, the error printed against k (rel. max: the worst
// |C - Ĉ| / (|Â||B̂|); share: the worst element's error over its own bound). Per tensor only up to
// max_k: past it the accumulator's bound says little (gemm.cpp), and step 1 refuses that k.
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
