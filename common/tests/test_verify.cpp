// Verification must catch what a broken kernel produces: NaN (an unwritten, poisoned element),
// one wrong element, a small systematic error; and it must pass float rounding noise.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpgpu/verify.hpp"
#include "test_support.hpp"

namespace gpgpu {
namespace {

struct Case {
  std::vector<double> ref;
  std::vector<float> got;
};

Case realistic(std::int64_t n) {
  Case c;
  const auto r = testing::random_guess(n, 42, -3.0f, 3.0f);
  c.ref.assign(r.begin(), r.end());
  c.got = r;  // float copy of the reference: rounding noise only
  return c;
}

const double kTol = jacobi_tolerance(1000);

TEST(Verify, PassesRoundingNoise) {
  Case c = realistic(100000);
  const auto noise = testing::random_guess(100000, 43, -1.0f, 1.0f);
  for (std::size_t i = 0; i < c.got.size(); ++i) c.got[i] *= 1.0f + 4e-7f * noise[i];
  const Verification v = verify_solution(c.got, c.ref, kTol);
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_LT(v.rel_l2, 1e-6);
}

TEST(Verify, FailsOnAPoisonedElement) {
  Case c = realistic(4097);
  c.got[4096] = std::numeric_limits<float>::quiet_NaN();
  const Verification v = verify_solution(c.got, c.ref, kTol);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.non_finite, 1);
  EXPECT_EQ(v.worst_index, 4096);
  EXPECT_NE(v.summary().find("non-finite"), std::string::npos);
}

TEST(Verify, FailsOnInfinity) {
  Case c = realistic(10);
  c.got[0] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(verify_solution(c.got, c.ref, kTol).pass);
}

TEST(Verify, FailsOnOneWrongElementAmongAMillion) {
  // Off by 1% of the largest value: invisible in the 2-norm (≈ 1e-5), caught by the max-norm.
  Case c = realistic(1 << 20);
  c.got[123457] += 0.03f;
  const Verification v = verify_solution(c.got, c.ref, kTol);
  EXPECT_LT(v.rel_l2, kTol);
  EXPECT_FALSE(v.pass) << v.summary();
  EXPECT_EQ(v.worst_index, 123457);
}

TEST(Verify, FailsOnASmallSystematicError) {
  Case c = realistic(5000);
  for (float& x : c.got) x *= 1.001f;
  EXPECT_FALSE(verify_solution(c.got, c.ref, kTol).pass);
}

TEST(Verify, ToleranceGrowsLinearlyWithIterations) {
  EXPECT_NEAR(jacobi_tolerance(1000), 4.0 * std::ldexp(1.0, -24) * 1016, 1e-15);
  EXPECT_LT(jacobi_tolerance(10), jacobi_tolerance(100));
  EXPECT_LT(jacobi_tolerance(1000), 1e-3);
}

TEST(Verify, RejectsMismatchedLengths) {
  const std::vector<float> got(3, 1.0f);
  const std::vector<double> ref(4, 1.0);
  EXPECT_THROW((void)verify_solution(got, ref, kTol), std::invalid_argument);
}

TEST(Verify, SkippedVerificationSaysSo) {
  Verification v;
  EXPECT_EQ(v.verdict(), "skipped");
}

}  // namespace
}  // namespace gpgpu
