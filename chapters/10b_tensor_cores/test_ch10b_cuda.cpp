// Chapter 10b's variants on the GPU (label cuda; skipped without one): every kernel and cuBLAS peer
// within its inputs' bound (TF32 or BF16, problems/blas gemm.cpp) of the FP64 reference, at the
// awkward sizes (tails in every dimension), the aligned ones (the 16-byte paths) and the large
// ones, C poisoned before every run; the double run is refused, with a reason, by every variant.
// compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
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
TEST_P(TensorCoreVariant, RefusesTheDoubleRun) {
  EXPECT_TRUE(GetParam().limitation({{64, 64, 64}, ElementType::f64}, *gpu_).has_value());
}

INSTANTIATE_TEST_SUITE_P(Ch10b, TensorCoreVariant, ::testing::ValuesIn(kernels_then_cublas()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
