// FP8 (E4M3) inputs with a scale per tensor on the host (fp8.hpp): the rounding against every one of
// the format's values, the scale, the dequantised operands, and the FP8 bound (it accepts the exact
// product of the dequantised inputs and the accumulator it assumes, and refuses one 1% off).
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/bound.hpp"
#include "gpgpu/blas/fp8.hpp"
#include "gpgpu/blas/gemm.hpp"

namespace gpgpu::blas {
namespace {

// The value of E4M3 bits s eeee mmm (bias 7; exponent 0: subnormal; 0x7F and 0xFF: NaN).
double e4m3_value(unsigned bits) {
  const int e = static_cast<int>(bits >> 3 & 0xF), m = static_cast<int>(bits & 7);
  const double magnitude = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return bits & 0x80 ? -magnitude : magnitude;
}

// The finite E4M3 values with their bits, for the nearest-value search.
struct Grid {
  std::vector<double> value;
  std::vector<unsigned> bits;
};
Grid e4m3_grid() {
  Grid g;
  for (unsigned b = 0; b < 256; ++b)
    if ((b & 0x7F) != 0x7F) {
      g.value.push_back(e4m3_value(b));
      g.bits.push_back(b);
    }
  return g;
}

// The nearest E4M3 value to x by search, ties to the even mantissa; beyond ±448, ±448.
double nearest_by_search(const Grid& g, double x) {
  if (std::fabs(x) >= 448) return std::copysign(448.0, x);
  std::size_t best = 0;
  for (std::size_t i = 1; i < g.value.size(); ++i) {
    const double d = std::fabs(g.value[i] - x), d0 = std::fabs(g.value[best] - x);
    if (d < d0 || (d == d0 && (g.bits[i] & 1) == 0 && (g.bits[best] & 1) == 1)) best = i;
  }
  return g.value[best] == 0 ? std::copysign(0.0, x) : g.value[best];
}

TEST(RoundToE4m3, KeepsEveryE4m3ValueAndRoundsToTheNearestEven) {
  const Grid g = e4m3_grid();
  for (double v : g.value) EXPECT_EQ(round_to_e4m3(static_cast<float>(v)), v) << v;
  // Ties: 1 + 2^-4 lies between 1 (mantissa 000) and 1.125 (001): to 1; 1.1875 between 1.125 and
  // 1.25 (010): to 1.25; 2^-10 between 0 and 2^-9: to 0; 3·2^-10 between 2^-9 and 2^-8: to 2^-8.
  EXPECT_EQ(round_to_e4m3(1.0625f), 1.0f);
  EXPECT_EQ(round_to_e4m3(1.1875f), 1.25f);
  EXPECT_EQ(round_to_e4m3(std::ldexp(1.0f, -10)), 0.0f);
  EXPECT_EQ(round_to_e4m3(3 * std::ldexp(1.0f, -10)), std::ldexp(1.0f, -8));
  EXPECT_EQ(round_to_e4m3(0.3f), 0.3125f);
  EXPECT_EQ(round_to_e4m3(-1000.0f), -448.0f);  // satfinite
  EXPECT_EQ(round_to_e4m3(463.9f), 448.0f);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-12, 10);
  for (int i = 0; i < 20000; ++i) {
    const float x = std::ldexp(mantissa(rng), exponent(rng));
    ASSERT_EQ(round_to_e4m3(x), nearest_by_search(g, x)) << std::hexfloat << x;
  }
}

TEST(E4m3Scale, PutsTheLargestMagnitudeOn448) {
  EXPECT_EQ(e4m3_scale(448), 1.0f);
  EXPECT_EQ(e4m3_scale(0), 1.0f);  // a tensor of zeros: any scale, 1 divides safely
  EXPECT_EQ(e4m3_scale(100), 100.0f / 448.0f);
  EXPECT_EQ(amax(std::vector<float>{-3, 2, -7.5f, 7}), 7.5f);
}

TEST(DequantisedE4m3, IsWithinTheFormatsRoundingOfTheFloats) {
  const Operands ops = random_operands({19, 23, 37}, ElementType::f32, 3);
  const Operands q = dequantised_e4m3(ops);
  ASSERT_EQ(q.a.type(), ElementType::f64);
  const std::span<const float> x = ops.a.as<float>();
  const std::span<const double> y = q.a.as<double>();
  const double s = e4m3_scale(amax(x));
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Relative 2^-4 in the normal range (|x| >= 2^-6 s), absolute 2^-10 s below it.
    EXPECT_LE(std::fabs(y[i] - x[i]), std::max(std::ldexp(static_cast<double>(std::fabs(x[i])), -4), std::ldexp(s, -10)) * (1 + 1e-6)) << i;
    EXPECT_EQ(y[i] / s, round_to_e4m3(x[i] / static_cast<float>(s))) << i;
  }
}

// The FP8 bound: (1 + γ_⌈k/32⌉(2^(1-p)))(1 + 2^-24)^3(1 + u_out) - 1 plus the reference's share.
TEST(ErrorBound, Fp8IsTheAccumulatorsPerKStepPlusTheEpilogueAndC) {
  const std::int64_t k = 1000;
  const double acc = gamma_n(32, std::ldexp(1.0, 1 - kFp8AccumulatorBits)), r = 2 * gamma_n(k, std::ldexp(1.0, -53));
  const double epilogue = std::pow(1 + std::ldexp(1.0, -24), 3);
  EXPECT_NEAR(error_bound(Arithmetic::fp8, k), (1 + acc) * epilogue - 1 + r, 1e-9 * acc);
  EXPECT_NEAR(error_bound(Arithmetic::fp8_bf16_c, k), (1 + acc) * epilogue * (1 + std::ldexp(1.0, -8)) - 1 + r, 1e-9 * acc);
  EXPECT_EQ(arithmetic_name(Arithmetic::fp8), "FP8");
  EXPECT_EQ(arithmetic_name(Arithmetic::fp8_bf16_c), "FP8_BF16C");
  EXPECT_TRUE(judged_on_dequantised_inputs(Arithmetic::fp8_bf16_c));
  EXPECT_FALSE(judged_on_dequantised_inputs(Arithmetic::bf16));
  EXPECT_NO_THROW((void)error_bound(Arithmetic::fp8, max_k(Arithmetic::fp8)));
  EXPECT_THROW((void)error_bound(Arithmetic::fp8, 4 * max_k(Arithmetic::fp8)), std::invalid_argument);
  EXPECT_EQ(max_k(Arithmetic::fp32), kMaxK);
}

// C of the dequantised inputs as the assumed accumulator makes it: each k-step's 32 products added
// exactly, the result cut to p significant bits.
double cut_to_bits(double x, int p) {
  if (x == 0) return 0;
  const int e = std::ilogb(x);
  const double quantum = std::ldexp(1.0, e - p + 1);
  return std::trunc(x / quantum) * quantum;
}
HostMatrix accumulated_as_assumed(const Operands& q, int p) {
  const Dims d = q.dims();
  const std::span<const double> a = q.a.as<double>(), b = q.b.as<double>();
  std::vector<float> c(static_cast<std::size_t>(d.m * d.n));
  for (std::int64_t i = 0; i < d.m; ++i)
    for (std::int64_t j = 0; j < d.n; ++j) {
      double acc = 0;
      for (std::int64_t p0 = 0; p0 < d.k; p0 += kFp8KStep) {
        double step = 0;
        for (std::int64_t l = p0; l < std::min(p0 + kFp8KStep, d.k); ++l)
          step += a[static_cast<std::size_t>(i * d.k + l)] * b[static_cast<std::size_t>(l * d.n + j)];
        acc = cut_to_bits(acc + step, p);
      }
      c[static_cast<std::size_t>(i * d.n + j)] = static_cast<float>(acc);
    }
  return HostMatrix(d.c(), std::move(c));
}

TEST(Compare, TheFp8BoundAcceptsTheAssumedAccumulatorAndRefusesOnePercentOff) {
  const Dims d{13, 17, 2000};
  const Operands ops = random_operands(d, ElementType::f32, 8);
  const Operands q = dequantised_e4m3(ops);
  const Reference ref = reference(q);
  HostMatrix c = accumulated_as_assumed(q, kFp8AccumulatorBits);
  const Verification ok = compare(c, ref, Arithmetic::fp8);
  EXPECT_TRUE(ok.pass) << ok.summary();
  c.as<float>()[5] += static_cast<float>(0.01 * ref.abs_ab[5]);
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp8).pass);
  EXPECT_FALSE(compare(HostMatrix::zeros(d.c(), ElementType::f32), ref, Arithmetic::fp8).pass);
}

}  // namespace
}  // namespace gpgpu::blas
