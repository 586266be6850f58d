/// @file tensor_core_tests.hpp
/// @brief The GPU checks every tensor-core row of chapters 10b and 10c passes (label cuda; skipped
/// without a GPU): within its inputs' bound (TF32, BF16 or FP8, problems/blas gemm.cpp) of the FP64
/// reference at the awkward sizes (tails in every dimension), the aligned ones (the 16-byte paths),
/// the large ones and the sanitizer sizes, C poisoned before every run; several rounds of tiles for
/// the persistent steps; a float's extra bits against TF32's input error; C in BF16 rounded to
/// nearest even; the double run refused. A chapter's test includes this header once and
/// instantiates TensorCoreVariant on its list of variants. compute-sanitizer runs the tests
/// named *AtSanitizerSizes*.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/cuda/opener.hpp"

namespace gpgpu::blas::tensor_core_tests {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
namespace checks = gpgpu::blas::checks;

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

}  // namespace gpgpu::blas::tensor_core_tests
