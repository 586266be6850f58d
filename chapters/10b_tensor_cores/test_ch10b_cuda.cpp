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
#include "tensor_core_variants.hpp"

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
// What the tensor cores do with a float that has more than TF32's 10 mantissa bits, and that it
// stays within the bound's input error u_in = 2^-10. A is one row of k = 8 copies of
// a = 1 + 3·2^-12 (mantissa bits 11 and 12 set), B a column of eight ones, so C = 8a exactly in
// FP32 sums. Rounded to nearest, a becomes 1 + 2^-10 (C = 8 + 2^-7); cut to its top 19 bits it
// becomes 1 (C = 8); read in full, C = 8 + 3·2^-9. The test prints which each TF32 variant did
// (the chapter's README quotes it) and fails if C is off by more than u_in of itself.
//! [tf32_inputs_test]
TEST_P(TensorCoreVariant, ReadsFloatsWithinTheTf32InputError) {
  const gpgpu::blas::GemmVariant& v = GetParam();
  if (!v.tf32) GTEST_SKIP() << "BF16 inputs are rounded once by the host code, not by the tensor cores";
  const Dims d{1, 1, 8};
  if (auto why = v.limitation({d, ElementType::f32}, *gpu_)) GTEST_SKIP() << *why;
  const float a = 1.0f + 3.0f * std::ldexp(1.0f, -12);
  gpgpu::blas::Operands in{gpgpu::matrix::HostMatrix({1, 8}, std::vector<float>(8, a)),
                           gpgpu::matrix::HostMatrix({8, 1}, std::vector<float>(8, 1.0f))};
  std::unique_ptr<gpgpu::blas::GemmOperation> op = v.make({d, ElementType::f32}, *gpu_);
  op->upload(in);
  op->run(1);
  const float c = op->download().as<float>()[0];
  const char* what = c == 8.0f                                ? "cut to TF32 (the top 19 bits)"
                     : c == 8.0f + std::ldexp(1.0f, -7)       ? "rounded to nearest TF32"
                     : c == 8.0f * a                          ? "read in full (no TF32 conversion)"
                                                              : "something else";
  std::cout << v.info.name << ": a = 1 + 3*2^-12 was " << what << " (C = " << std::hexfloat << c << std::defaultfloat << ")\n";
  EXPECT_LE(std::abs(static_cast<double>(c) - 8.0 * a), std::ldexp(8.0 * a, -10)) << what;
}
//! [tf32_inputs_test]
TEST_P(TensorCoreVariant, RefusesTheDoubleRun) {
  EXPECT_TRUE(GetParam().limitation({{64, 64, 64}, ElementType::f64}, *gpu_).has_value());
}

INSTANTIATE_TEST_SUITE_P(Ch10b, TensorCoreVariant, ::testing::ValuesIn(kernels_then_cublas()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
