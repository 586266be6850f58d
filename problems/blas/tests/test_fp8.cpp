// FP8 (E4M3) inputs with a scale per tensor or per block on the host (fp8.hpp): the rounding against
// every one of the format's values, the scales, the dequantised operands, the FP8 reference's partial
// sums, and the FP8 bounds: each accepts the accumulator it models (every addend of a k-step aligned
// and cut) on the dequantised inputs, also where cancellation breaks the first model's bound, and
// refuses an element twice its bound off.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
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

// The FP8 bounds, per element (gemm.cpp): (1 + η) δ (1 + δ)^(N-1) (Q + |Â||B̂|) + η |Â||B̂| plus the
// reference's share, δ = 34 u (1 + u), N the k-steps of one accumulator run.
TEST(ElementBound, Fp8IsEveryCutOfEveryKStepCompoundedPlusTheEpilogueAndC) {
  const std::int64_t k = 1000;
  const double u = std::ldexp(1.0, 1 - kFp8AccumulatorBits), delta = 34 * u * (1 + u), r = 2 * gamma_n(k, std::ldexp(1.0, -53));
  const double eta = std::pow(1 + std::ldexp(1.0, -24), 3) - 1, eta_bf16 = (1 + eta) * (1 + std::ldexp(1.0, -8)) - 1;
  const double acc = delta * std::pow(1 + delta, 32 - 1);  // 32 k-steps of 32 (the last one partial)
  const ElementBound fp8 = element_bound(Arithmetic::fp8, k), bf16c = element_bound(Arithmetic::fp8_bf16_c, k);
  EXPECT_NEAR(fp8.partial_sums, (1 + eta) * acc, 1e-12 * acc);
  EXPECT_NEAR(fp8.abs_ab, (1 + eta) * acc + eta + r, 1e-9 * acc);
  EXPECT_NEAR(bf16c.partial_sums, (1 + eta_bf16) * acc, 1e-12 * acc);
  EXPECT_NEAR(bf16c.abs_ab, (1 + eta_bf16) * acc + eta_bf16 + r, 1e-9 * acc);
  // Block scales: 4 k-steps from 0 per block, then ⌈1000/128⌉ = 8 FP32 adds.
  const double block = delta * std::pow(1 + delta, 3), eta_block = gamma_n(8, std::ldexp(1.0, -24));
  const ElementBound blocks = element_bound(Arithmetic::fp8_blocks, k);
  EXPECT_NEAR(blocks.partial_sums, (1 + eta_block) * block, 1e-12 * block);
  EXPECT_NEAR(blocks.abs_ab, (1 + eta_block) * block + eta_block + r, 1e-9 * block);
  EXPECT_NEAR(element_bound(Arithmetic::fp8_blocks, 64).partial_sums, (1 + gamma_n(1, std::ldexp(1.0, -24))) * delta * (1 + delta), 1e-15);
  EXPECT_EQ(element_bound(Arithmetic::fp32, k).partial_sums, 0);
  EXPECT_EQ(element_bound(Arithmetic::fp32, k).abs_ab, error_bound(Arithmetic::fp32, k));
  EXPECT_EQ(arithmetic_name(Arithmetic::fp8), "FP8");
  EXPECT_EQ(arithmetic_name(Arithmetic::fp8_bf16_c), "FP8_BF16C");
  EXPECT_TRUE(judged_on_dequantised_inputs(Arithmetic::fp8_bf16_c));
  EXPECT_FALSE(judged_on_dequantised_inputs(Arithmetic::bf16));
  EXPECT_THROW((void)error_bound(Arithmetic::fp8, k), std::invalid_argument);  // needs the partial sums
  // max_k: the last k whose compounding (1 + δ)^(⌈k/32⌉ - 1) is at most 4.
  const std::int64_t most = max_k(Arithmetic::fp8);
  EXPECT_EQ(most % kFp8KStep, 0);
  EXPECT_LE(std::pow(1 + delta, static_cast<double>(most / kFp8KStep - 1)), 4.0);
  EXPECT_GT(std::pow(1 + delta, static_cast<double>(most / kFp8KStep)), 4.0);
  EXPECT_GE(most, 8192);
  EXPECT_NO_THROW((void)element_bound(Arithmetic::fp8, most));
  EXPECT_THROW((void)element_bound(Arithmetic::fp8, most + 1), std::invalid_argument);
  EXPECT_EQ(max_k(Arithmetic::fp8_blocks), kMaxK);
  EXPECT_EQ(max_k(Arithmetic::fp32), kMaxK);
}

// Q by hand: for each element, each run of the accumulator (all of k, or a block of 128), the
// partial sum of the run so far in magnitude at every 32 of k after the run's first.
std::vector<double> partial_sums_by_hand(const Operands& q, std::int64_t run) {
  const Dims d = q.dims();
  const std::span<const double> a = q.a.as<double>(), b = q.b.as<double>();
  std::vector<double> sums(static_cast<std::size_t>(d.m * d.n), 0.0);
  for (std::int64_t i = 0; i < d.m; ++i)
    for (std::int64_t j = 0; j < d.n; ++j) {
      double partial = 0;
      for (std::int64_t l = 0; l < d.k; ++l) {
        if (l % run == 0) partial = 0;
        else if (l % kFp8KStep == 0) sums[static_cast<std::size_t>(i * d.n + j)] += std::fabs(partial);
        partial += a[static_cast<std::size_t>(i * d.k + l)] * b[static_cast<std::size_t>(l * d.n + j)];
      }
    }
  return sums;
}

TEST(Fp8Reference, AddsTheRunningSumAtEveryKStepAndRestartsItPerBlock) {
  const Operands q = dequantised_e4m3_blocks(random_operands({3, 5, 300}, ElementType::f32, 12));
  const Reference plain = reference(q);
  for (const Arithmetic arithmetic : {Arithmetic::fp8, Arithmetic::fp8_blocks_bf16_c}) {
    const std::vector<double> expected = partial_sums_by_hand(q, block_scaled(arithmetic) ? kFp8BlockK : q.dims().k);
    for (const Reference& ref : {fp8_reference(q, arithmetic), fp8_reference_by_loop(q, arithmetic)}) {
      ASSERT_EQ(ref.partial_sums.size(), expected.size()) << ref.method;
      for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_NEAR(ref.partial_sums[i], expected[i], 1e-12 * plain.abs_ab[i] * 10) << ref.method << " " << i;
        EXPECT_NEAR(ref.c[i], plain.c[i], 1e-12 * plain.abs_ab[i]) << ref.method << " " << i;
        EXPECT_NEAR(ref.abs_ab[i], plain.abs_ab[i], 1e-12 * plain.abs_ab[i]) << ref.method << " " << i;
      }
    }
  }
  // Per tensor at k = 300 the sum runs on: 9 boundaries, more than the block scales' 7.
  double tensor = 0, blocks = 0;
  for (double x : partial_sums_by_hand(q, 300)) tensor += x;
  for (double x : partial_sums_by_hand(q, kFp8BlockK)) blocks += x;
  EXPECT_GT(tensor, blocks);
  EXPECT_THROW((void)fp8_reference(q, Arithmetic::bf16), std::invalid_argument);
  // An FP8 result judged against a reference without Q: refused, not judged by a bound without it.
  EXPECT_THROW((void)compare(HostMatrix::zeros(q.dims().c(), ElementType::f32), plain, Arithmetic::fp8), std::invalid_argument);
}

// The accumulator as the bound models it (gemm.cpp): per k-step the running sum and the 32
// products aligned to the largest exponent among them, each cut (toward zero) to p bits there, the
// cut addends summed exactly, the sum cut to p bits. Every `promote_every` of k (step 12:
// kFp8BlockK; step 11: all of k) the accumulator's sum is added into a float and the accumulator
// restarts from 0 (block scales are in the dequantised inputs here: powers of two multiply exactly).
double cut_to_bits(double x, int p) {
  if (x == 0) return 0;
  const double quantum = std::ldexp(1.0, std::ilogb(x) - p + 1);
  return std::trunc(x / quantum) * quantum;
}
double aligned_and_cut(double acc, const std::vector<double>& products, int p) {
  double largest = std::fabs(acc);
  for (double x : products) largest = std::max(largest, std::fabs(x));
  if (largest == 0) return 0;
  const double quantum = std::ldexp(1.0, std::ilogb(largest) - p + 1);
  double sum = std::trunc(acc / quantum) * quantum;  // multiples of quantum below 2^(p+7) of it: exact
  for (double x : products) sum += std::trunc(x / quantum) * quantum;
  return cut_to_bits(sum, p);
}
// The first model, which a measurement at k = 64 broke: the step's products added exactly, only
// the result cut.
double result_cut(double acc, const std::vector<double>& products, int p) {
  for (double x : products) acc += x;
  return cut_to_bits(acc, p);
}
using StepModel = double (*)(double, const std::vector<double>&, int);
HostMatrix accumulated(const Operands& q, int p, std::int64_t promote_every, StepModel step = aligned_and_cut) {
  const Dims d = q.dims();
  const std::span<const double> a = q.a.as<double>(), b = q.b.as<double>();
  std::vector<float> c(static_cast<std::size_t>(d.m * d.n));
  std::vector<double> products;
  for (std::int64_t i = 0; i < d.m; ++i)
    for (std::int64_t j = 0; j < d.n; ++j) {
      float sum = 0;
      for (std::int64_t b0 = 0; b0 < d.k; b0 += promote_every) {
        double acc = 0;
        for (std::int64_t p0 = b0; p0 < std::min(b0 + promote_every, d.k); p0 += kFp8KStep) {
          products.clear();
          for (std::int64_t l = p0; l < std::min(p0 + kFp8KStep, d.k); ++l)
            products.push_back(a[static_cast<std::size_t>(i * d.k + l)] * b[static_cast<std::size_t>(l * d.n + j)]);
          acc = step(acc, products, p);
        }
        sum += static_cast<float>(acc);  // p <= 24 bits: exact in float; the add rounds to nearest
      }
      c[static_cast<std::size_t>(i * d.n + j)] = sum;
    }
  return HostMatrix(d.c(), std::move(c));
}

// The first model's bound, γ_⌈k/32⌉(2^(1-p)) per tensor and γ_min(⌈k/32⌉,4)(2^(1-p)) + the
// promotion's γ_⌈k/128⌉(2^-24) with block scales, times |Â||B̂| (FP32 C; the reference's share left
// out): what the cancellation test shows too small.
double first_model_bound(Arithmetic arithmetic, std::int64_t k) {
  const double u = std::ldexp(1.0, 1 - kFp8AccumulatorBits);
  const std::int64_t steps = (k + kFp8KStep - 1) / kFp8KStep;
  if (!block_scaled(arithmetic)) return (1 + gamma_n(steps, u)) * std::pow(1 + std::ldexp(1.0, -24), 3) - 1;
  return (1 + gamma_n(std::min<std::int64_t>(steps, 4), u)) * (1 + gamma_n((k + kFp8BlockK - 1) / kFp8BlockK, std::ldexp(1.0, -24))) - 1;
}

// Cancellation: each k-step holds one product ±L, L = 448², alternately + and - (the running sum
// goes L, 0, L, ...), and 31 small ones, 20 of +s and 10 of -s and a 0 (s = 15 in row 0, 7 in row 1:
// E4M3 values times 1). Aligned to L's exponent (2^17) at 14 bits every small one is below the
// quantum 16 and lost, so each k-step loses 10 s: C is off by 10 s per k-step, where the first
// model (the small products added exactly, the result cut to 14 bits) loses less than 16 per cut
// and its bound allows about ⌈k/32⌉² 2^-13 L. The bound holds; the first model's fails in row 0 for 1, 2 and 4
// k-steps and, with block scales, for two blocks of four.
Operands cancelling(std::int64_t k) {
  const Dims d{2, 3, k};
  std::vector<double> a(static_cast<std::size_t>(d.m * d.k)), b(static_cast<std::size_t>(d.k * d.n));
  for (std::int64_t l = 0; l < k; ++l) {
    const std::int64_t in_step = l % kFp8KStep, step = l / kFp8KStep;
    const double sign = in_step == 0 ? 1.0 : in_step <= 20 ? 1.0 : in_step <= 30 ? -1.0 : 0.0;
    for (std::int64_t i = 0; i < d.m; ++i) a[static_cast<std::size_t>(i * d.k + l)] = in_step == 0 ? 448.0 : sign * (i == 0 ? 15.0 : 7.0);
    for (std::int64_t j = 0; j < d.n; ++j) b[static_cast<std::size_t>(l * d.n + j)] = in_step == 0 ? (step % 2 == 0 ? 448.0 : -448.0) : 1.0;
  }
  return {HostMatrix(d.a(), std::move(a)), HostMatrix(d.b(), std::move(b))};
}

TEST(Compare, CancellationBreaksTheFirstFp8ModelsBoundAndNotTheBound) {
  for (const auto& [arithmetic, k] : {std::pair{Arithmetic::fp8, std::int64_t{32}}, std::pair{Arithmetic::fp8, std::int64_t{64}},
                                      std::pair{Arithmetic::fp8, std::int64_t{128}}, std::pair{Arithmetic::fp8_blocks, std::int64_t{256}}}) {
    const Operands q = cancelling(k);
    const Reference ref = fp8_reference(q, arithmetic);
    const std::int64_t promote = block_scaled(arithmetic) ? kFp8BlockK : k;
    const HostMatrix c = accumulated(q, kFp8AccumulatorBits, promote);
    const double steps = static_cast<double>(k / kFp8KStep);
    EXPECT_EQ(c.as<float>()[0], static_cast<float>(ref.c[0] - steps * 150)) << k << ": every small product lost";
    // The first model keeps within its own bound here (it cuts only each result, L + 10 s at 14
    // bits), and that bound is too small for what the aligned cuts lose.
    const double bound = first_model_bound(arithmetic, k) * ref.abs_ab[0];
    EXPECT_LE(std::fabs(accumulated(q, kFp8AccumulatorBits, promote, result_cut).as<float>()[0] - ref.c[0]), bound) << k;
    EXPECT_GT(std::fabs(c.as<float>()[0] - ref.c[0]), bound) << k;
    const Verification check = compare(c, ref, arithmetic);
    EXPECT_TRUE(check.pass) << arithmetic_name(arithmetic) << " k = " << k << ": " << check.summary();
    std::cout << arithmetic_name(arithmetic) << " k = " << k << ", cancellation: error " << std::fabs(c.as<float>()[0] - ref.c[0])
              << ", the first model allowed " << bound << "; " << check.summary() << "\n";
  }
}

// The partial sums' term is needed: one product L = 448² in the first k-step, then only products of
// 15 (15 x 1). Every addend is aligned to L's exponent (2^17; L is the running sum from the second
// k-step on), where a quantum at 14 bits is 16: each product of 15 is lost, 31 of them in the first
// k-step and 32 in each of the other 99 of k = 3200: 47,985 in all. Without Q (|Â||B̂| alone: L + 15 (k - 1), compounded) the bound
// allows about 1,560; Q = Σ_s |C_s| holds L once per k-step and covers it.
TEST(Compare, ALargeEarlyProductNeedsThePartialSumsTerm) {
  const Dims d{1, 1, 3200};
  std::vector<double> a(static_cast<std::size_t>(d.k), 15.0), b(static_cast<std::size_t>(d.k), 1.0);
  a[0] = 448.0;
  b[0] = 448.0;
  const Operands q{HostMatrix(d.a(), std::move(a)), HostMatrix(d.b(), std::move(b))};
  const Reference ref = fp8_reference(q, Arithmetic::fp8);
  const HostMatrix c = accumulated(q, kFp8AccumulatorBits, d.k);
  const double error = std::fabs(c.as<float>()[0] - ref.c[0]);
  EXPECT_EQ(error, 31 * 15.0 + 99 * 480.0) << "every product of 15 lost";
  const ElementBound bound = element_bound(Arithmetic::fp8, d.k);
  EXPECT_GT(error, bound.abs_ab * ref.abs_ab[0]) << "the |A||B| term alone would pass it";
  const Verification check = compare(c, ref, Arithmetic::fp8);
  EXPECT_TRUE(check.pass) << check.summary();
}

// Random E4M3 values of both signs (uniform in [-448, 448], rounded to E4M3 with scale 1: what the
// tensor cores multiply, every product exact in double).
Operands random_e4m3(const Dims& d, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-448, 448);
  const auto matrix = [&](Shape s) {
    std::vector<double> v(static_cast<std::size_t>(s.rows * s.cols));
    for (double& x : v) x = round_to_e4m3(value(rng));
    return HostMatrix(s, std::move(v));
  };
  Operands q{matrix(d.a()), HostMatrix{}};
  q.b = matrix(d.b());
  return q;
}

TEST(Compare, TheModelledFp8AccumulatorIsWithinTheBoundOnRandomDataOfBothSigns) {
  for (const std::int64_t k : {1, 31, 33, 64, 129, 1000}) {
    const Dims d{7, 9, k};
    const Operands tensor = random_e4m3(d, 30 + static_cast<unsigned>(k));
    const Verification per_tensor = compare(accumulated(tensor, kFp8AccumulatorBits, k), fp8_reference(tensor, Arithmetic::fp8), Arithmetic::fp8);
    EXPECT_TRUE(per_tensor.pass) << "k = " << k << ": " << per_tensor.summary();
    const Operands blocks = dequantised_e4m3_blocks(random_operands(d, ElementType::f32, 40 + static_cast<unsigned>(k)));
    const Reference block_ref = fp8_reference(blocks, Arithmetic::fp8_blocks);
    const Verification per_block = compare(accumulated(blocks, kFp8AccumulatorBits, kFp8BlockK), block_ref, Arithmetic::fp8_blocks);
    EXPECT_TRUE(per_block.pass) << "blocks, k = " << k << ": " << per_block.summary();
    // The bound can fail: an accumulator of 4 bits instead of 14 does.
    if (k >= 64) {
      EXPECT_FALSE(compare(accumulated(blocks, 4, kFp8BlockK), block_ref, Arithmetic::fp8_blocks).pass) << k;
    }
  }
}

// The bound against k on uniform data of both signs (16 x 16 elements): its mean and largest share of
// |Â||B̂| beside the first model's γ, and the modelled accumulator's worst error, all printed.
TEST(Compare, TheFp8BoundAgainstKOnUniformData) {
  for (const std::int64_t k : {64, 128, 1024, 8192}) {
    const Operands q = random_e4m3({16, 16, k}, 50 + static_cast<unsigned>(k));
    for (const Arithmetic arithmetic : {Arithmetic::fp8, Arithmetic::fp8_blocks}) {
      const Reference ref = fp8_reference(q, arithmetic);
      const ElementBound bound = element_bound(arithmetic, k);
      double mean = 0, largest = 0;
      for (std::size_t i = 0; i < ref.c.size(); ++i) {
        const double share = bound.abs_ab + bound.partial_sums * ref.partial_sums[i] / ref.abs_ab[i];
        mean += share / static_cast<double>(ref.c.size());
        largest = std::max(largest, share);
      }
      const HostMatrix c = accumulated(q, kFp8AccumulatorBits, block_scaled(arithmetic) ? kFp8BlockK : k);
      const Verification check = compare(c, ref, arithmetic);
      EXPECT_TRUE(check.pass) << check.summary();
      std::printf("%s k = %5lld: bound / |A||B| mean %.2e, largest %.2e (first model %.2e); modelled accumulator's worst error / |A||B| %.2e, %.2g of its bound\n",
                  std::string(arithmetic_name(arithmetic)).c_str(), static_cast<long long>(k), mean, largest,
                  first_model_bound(arithmetic, k), worst_relative_error(c, ref), check.rel_max);
    }
  }
}

TEST(Compare, TheFp8BoundAcceptsTheModelledAccumulatorAndRefusesTwiceItsBoundOff) {
  const Dims d{13, 17, 2000};
  for (const Arithmetic arithmetic : {Arithmetic::fp8, Arithmetic::fp8_blocks}) {
    const Operands q = dequantised_inputs(arithmetic, random_operands(d, ElementType::f32, 8));
    const Reference ref = fp8_reference(q, arithmetic);
    HostMatrix c = accumulated(q, kFp8AccumulatorBits, block_scaled(arithmetic) ? kFp8BlockK : d.k);
    const Verification ok = compare(c, ref, arithmetic);
    EXPECT_TRUE(ok.pass) << ok.summary();
    EXPECT_EQ(ok.tolerance, 1);  // each element against its own bound
    EXPECT_NE(ok.basis.find("of its own bound"), std::string::npos) << ok.basis;
    const ElementBound bound = element_bound(arithmetic, d.k);
    c.as<float>()[5] = static_cast<float>(ref.c[5] + 2 * (bound.abs_ab * ref.abs_ab[5] + bound.partial_sums * ref.partial_sums[5]));
    const Verification off = compare(c, ref, arithmetic);
    EXPECT_FALSE(off.pass);
    EXPECT_EQ(off.worst_index, 5);
    EXPECT_NEAR(off.rel_max, 2, 1e-6);
    EXPECT_FALSE(compare(HostMatrix::zeros(d.c(), ElementType::f32), ref, arithmetic).pass);
  }
}

}  // namespace
}  // namespace gpgpu::blas
