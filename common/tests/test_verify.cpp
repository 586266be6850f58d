// Verification must catch what a broken kernel produces: NaN (an unwritten, poisoned element),
// one wrong element, a small systematic error; and it must pass float rounding noise.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpgpu/verify.hpp"
#include "gpgpu/harness/random.hpp"

namespace gpgpu {
namespace {

struct Case {
  std::vector<double> ref;
  std::vector<float> got;
};

Case realistic(std::int64_t n) {
  Case c;
  const auto r = harness::random_values<float>(n, 42, -3.0f, 3.0f);
  c.ref.assign(r.begin(), r.end());
  c.got = r;  // float copy of the reference: rounding noise only
  return c;
}

// The size of tolerance a Jacobi chapter uses after 1000 iterations (4u(1000+16), jacobi/reference.hpp).
const double kTol = 2.4e-4;

TEST(Verify, PassesRoundingNoise) {
  Case c = realistic(100000);
  const auto noise = harness::random_values<float>(100000, 43, -1.0f, 1.0f);
  for (std::size_t i = 0; i < c.got.size(); ++i) c.got[i] *= 1.0f + 4e-7f * noise[i];
  const Verification v = compare_normwise(c.got, c.ref, kTol);
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_LT(v.rel_l2, 1e-6);
}

TEST(Verify, FailsOnAPoisonedElement) {
  Case c = realistic(4097);
  c.got[4096] = std::numeric_limits<float>::quiet_NaN();
  const Verification v = compare_normwise(c.got, c.ref, kTol);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.non_finite, 1);
  EXPECT_EQ(v.worst_index, 4096);
  EXPECT_NE(v.summary().find("non-finite"), std::string::npos);
}

TEST(Verify, FailsOnInfinity) {
  Case c = realistic(10);
  c.got[0] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(compare_normwise(c.got, c.ref, kTol).pass);
}

TEST(Verify, FailsOnOneWrongElementAmongAMillion) {
  // Off by 1% of the largest value: invisible in the 2-norm (≈ 1e-5), caught by the max-norm.
  Case c = realistic(1 << 20);
  c.got[123457] += 0.03f;
  const Verification v = compare_normwise(c.got, c.ref, kTol);
  EXPECT_LT(v.rel_l2, kTol);
  EXPECT_FALSE(v.pass) << v.summary();
  EXPECT_EQ(v.worst_index, 123457);
}

TEST(Verify, FailsOnASmallSystematicError) {
  Case c = realistic(5000);
  for (float& x : c.got) x *= 1.001f;
  EXPECT_FALSE(compare_normwise(c.got, c.ref, kTol).pass);
}

TEST(Verify, RejectsMismatchedLengths) {
  const std::vector<float> got(3, 1.0f);
  const std::vector<double> ref(4, 1.0);
  EXPECT_THROW((void)compare_normwise(got, ref, kTol), std::invalid_argument);
}

TEST(Verify, SkippedVerificationSaysSo) {
  const Verification v = not_verified();
  EXPECT_EQ(v.verdict(), "skipped");
  EXPECT_FALSE(v.checked);
}

TEST(Verify, ABasisReplacesTheRelativeErrorsButNotANonFiniteValue) {
  Case c = realistic(10);
  Verification v = compare_normwise(c.got, c.ref, kTol);
  v.basis = "abs. error 1.0e-12 V <= 2.0e-05 V allowed";
  EXPECT_EQ(v.summary(), "PASS: abs. error 1.0e-12 V <= 2.0e-05 V allowed");
  c.got[3] = std::numeric_limits<float>::quiet_NaN();
  Verification nan = compare_normwise(c.got, c.ref, kTol);
  nan.basis = v.basis;
  EXPECT_NE(nan.summary().find("FAIL: 1 non-finite values"), std::string::npos) << nan.summary();
}

TEST(VerifyExact, PassesIdenticalValuesOfEveryType) {
  const auto f = harness::random_values<float>(1001, 1);
  const auto d = harness::random_values<double>(1001, 2);
  const auto i = harness::random_values<std::int32_t>(1001, 3, -1000, 1000);
  EXPECT_TRUE(compare_exact(std::span<const float>(f), f).pass);
  EXPECT_TRUE(compare_exact(std::span<const double>(d), d).pass);
  const Verification v = compare_exact(std::span<const std::int32_t>(i), i);
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_TRUE(v.exact);
}

TEST(VerifyExact, FailsOnTheLastBitAndCountsMismatches) {
  auto f = harness::random_values<float>(100, 4);
  auto g = f;
  g[7] = std::nextafter(g[7], 100.0f);
  g[90] = -g[90];
  const Verification v = compare_exact(std::span<const float>(g), f);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.mismatches, 2);
  EXPECT_EQ(v.worst_index, 7);
  EXPECT_NE(v.summary().find("2 elements differ"), std::string::npos) << v.summary();
}

TEST(VerifyExact, TellsZeroFromNegativeZeroAndFailsOnNaN) {
  const std::vector<float> ref{0.0f, 1.0f};
  EXPECT_FALSE(compare_exact(std::span<const float>(std::vector<float>{-0.0f, 1.0f}), ref).pass);
  const Verification v = compare_exact(std::span<const float>(std::vector<float>{0.0f, std::nanf("")}), ref);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.non_finite, 1);
}

TEST(VerifyAllOf, FailsWhenAnyPartFails) {
  const std::vector<float> a{1.0f};
  const std::vector<double> ref{1.0};
  const Verification good = compare_normwise(a, ref, 1e-6);
  const Verification bad = compare_normwise(std::vector<float>{2.0f}, ref, 1e-6);
  const std::vector<Verification> both{good, bad};
  EXPECT_FALSE(all_of(both).pass);
  const std::vector<Verification> goods{good, good};
  EXPECT_TRUE(all_of(goods).pass);
}

}  // namespace
}  // namespace gpgpu
