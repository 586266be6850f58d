// FP8 (E4M3) inputs with a scale per tensor or per block on the host (fp8.hpp): the rounding against
// every one of the format's values, the scales, the dequantised operands, and the FP8 bounds (each
// accepts the accumulator it assumes on the dequantised inputs and refuses one element 1% off).
#include <algorithm>
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

TEST(E4m3BlockScale, IsThePowerOfTwoThatPutsTheLargestMagnitudeIn224To448) {
  EXPECT_EQ(e4m3_block_scale(448), 1.0f);
  EXPECT_EQ(e4m3_block_scale(449), 2.0f);
  EXPECT_EQ(e4m3_block_scale(224), 0.5f);  // 224 / 0.5 = 448
  EXPECT_EQ(e4m3_block_scale(100), 0.25f);
  EXPECT_EQ(e4m3_block_scale(0), 1.0f);
  EXPECT_EQ(e4m3_block_scale(std::numeric_limits<float>::denorm_min()), std::ldexp(1.0f, -126));  // kept normal
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> mantissa(0.5f, 1);
  std::uniform_int_distribution<int> exponent(-100, 100);
  for (int i = 0; i < 10000; ++i) {
    const float amax = std::ldexp(mantissa(rng), exponent(rng)), s = e4m3_block_scale(amax);
    int e = 0;
    ASSERT_EQ(std::frexp(s, &e), 0.5f) << amax;  // a power of two
    ASSERT_LE(amax / s, 448.0f) << amax;
    ASSERT_GT(amax / s, 224.0f) << amax;  // the smallest such power
  }
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

// Each block of block_rows x block_cols (the last ones partial) rounded on its own power-of-two
// scale: the largest |x| of each block found here in one pass of this test's own (element's row /
// block_rows, column / block_cols), so that a wrong block index in dequantised_e4m3_blocks shows.
void expect_block_dequantised(const HostMatrix& floats, const HostMatrix& got, std::int64_t block_rows, std::int64_t block_cols) {
  const std::int64_t rows = floats.shape().rows, cols = floats.shape().cols;
  const std::span<const float> x = floats.as<float>();
  const std::span<const double> y = got.as<double>();
  ASSERT_EQ(got.shape(), floats.shape());
  const std::int64_t across = (cols + block_cols - 1) / block_cols;
  const auto block_of = [&](std::int64_t r, std::int64_t c) { return static_cast<std::size_t>((r / block_rows) * across + c / block_cols); };
  std::vector<float> largest(static_cast<std::size_t>((rows + block_rows - 1) / block_rows * across), 0.0f);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      largest[block_of(r, c)] = std::max(largest[block_of(r, c)], std::fabs(x[static_cast<std::size_t>(r * cols + c)]));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const float s = e4m3_block_scale(largest[block_of(r, c)]), xi = x[static_cast<std::size_t>(r * cols + c)];
      const double yi = y[static_cast<std::size_t>(r * cols + c)];
      ASSERT_EQ(yi, static_cast<double>(round_to_e4m3(xi / s)) * s) << r << "," << c;
      // Relative 2^-4 in the normal range (|x| >= 2^-6 s), absolute 2^-10 s below it.
      ASSERT_LE(std::fabs(yi - xi), std::max(std::ldexp(static_cast<double>(std::fabs(xi)), -4), std::ldexp(static_cast<double>(s), -10)))
          << r << "," << c;
    }
}

// A with 1 x 128 blocks, B with 128 x 128, at k and n that are no multiple of 128 (and 1), with
// some blocks of values a thousand times smaller than the rest, which a scale per tensor would
// round coarsely.
TEST(DequantisedE4m3Blocks, RoundsEveryBlockOnItsOwnScale) {
  for (const Dims d : {Dims{3, 5, 300}, Dims{1, 1, 1}, Dims{2, 259, 129}, Dims{5, 131, 257}}) {
    Operands ops = random_operands(d, ElementType::f32, 4);
    for (std::int64_t p = 128; p < d.k; p += 256)  // every second k-block of A's rows tiny
      for (std::int64_t i = 0; i < d.m; ++i)
        for (std::int64_t q = p; q < std::min(p + 128, d.k); ++q) ops.a.as<float>()[static_cast<std::size_t>(i * d.k + q)] *= 1e-3f;
    const Operands q = dequantised_e4m3_blocks(ops);
    expect_block_dequantised(ops.a, q.a, 1, kFp8BlockK);
    expect_block_dequantised(ops.b, q.b, kFp8BlockK, kFp8BlockK);
    const Operands r = dequantised_inputs(Arithmetic::fp8_blocks, ops);
    EXPECT_EQ(r.a.as<double>()[0], q.a.as<double>()[0]);
  }
  EXPECT_THROW((void)dequantised_inputs(Arithmetic::bf16, random_operands({2, 2, 2}, ElementType::f32, 1)), std::invalid_argument);
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
// exactly, the result cut to p significant bits; every `promote_every` of k (step 12: kFp8BlockK;
// step 11: never, all of k in the accumulator) that partial sum is added into a float and the
// accumulator restarts from 0 (the block scales are in the dequantised inputs here; the kernel's
// powers of two multiply exactly).
double cut_to_bits(double x, int p) {
  if (x == 0) return 0;
  const int e = std::ilogb(x);
  const double quantum = std::ldexp(1.0, e - p + 1);
  return std::trunc(x / quantum) * quantum;
}
HostMatrix accumulated_as_assumed(const Operands& q, int p, std::int64_t promote_every) {
  const Dims d = q.dims();
  const std::span<const double> a = q.a.as<double>(), b = q.b.as<double>();
  std::vector<float> c(static_cast<std::size_t>(d.m * d.n));
  for (std::int64_t i = 0; i < d.m; ++i)
    for (std::int64_t j = 0; j < d.n; ++j) {
      float sum = 0;
      for (std::int64_t b0 = 0; b0 < d.k; b0 += promote_every) {
        double acc = 0;
        for (std::int64_t p0 = b0; p0 < std::min(b0 + promote_every, d.k); p0 += kFp8KStep) {
          double step = 0;
          for (std::int64_t l = p0; l < std::min(p0 + kFp8KStep, d.k); ++l)
            step += a[static_cast<std::size_t>(i * d.k + l)] * b[static_cast<std::size_t>(l * d.n + j)];
          acc = cut_to_bits(acc + step, p);
        }
        sum += static_cast<float>(acc);
      }
      c[static_cast<std::size_t>(i * d.n + j)] = sum;
    }
  return HostMatrix(d.c(), std::move(c));
}

TEST(Compare, TheFp8BoundAcceptsTheAssumedAccumulatorAndRefusesOnePercentOff) {
  const Dims d{13, 17, 2000};
  const Operands ops = random_operands(d, ElementType::f32, 8);
  const Operands q = dequantised_e4m3(ops);
  const Reference ref = reference(q);
  HostMatrix c = accumulated_as_assumed(q, kFp8AccumulatorBits, d.k);
  const Verification ok = compare(c, ref, Arithmetic::fp8);
  EXPECT_TRUE(ok.pass) << ok.summary();
  c.as<float>()[5] += static_cast<float>(0.01 * ref.abs_ab[5]);
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp8).pass);
  EXPECT_FALSE(compare(HostMatrix::zeros(d.c(), ElementType::f32), ref, Arithmetic::fp8).pass);
}

TEST(Compare, TheFp8BlocksBoundAcceptsTheAssumedPromotionAndRefusesOnePercentOff) {
  const Dims d{13, 17, 2000};
  const Operands ops = random_operands(d, ElementType::f32, 9);
  const Operands q = dequantised_e4m3_blocks(ops);
  const Reference ref = reference(q);
  HostMatrix c = accumulated_as_assumed(q, kFp8AccumulatorBits, kFp8BlockK);
  const Verification ok = compare(c, ref, Arithmetic::fp8_blocks);
  EXPECT_TRUE(ok.pass) << ok.summary();
  // An accumulator of 8 bits instead of p must not pass.
  EXPECT_FALSE(compare(accumulated_as_assumed(q, 8, kFp8BlockK), ref, Arithmetic::fp8_blocks).pass);
  c.as<float>()[5] += static_cast<float>(0.01 * ref.abs_ab[5]);
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp8_blocks).pass);
}

}  // namespace
}  // namespace gpgpu::blas
