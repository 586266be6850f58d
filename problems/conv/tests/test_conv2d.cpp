// The convolution's reference and CPU variant: the reference against a loop written the other way
// round (each output pixel tests every tap against the border), the OpenMP convolution against the
// reference within γ_{k²} of the sum of magnitudes, and the zero padding against counts known exactly.
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/conv/conv2d.hpp"

namespace gpgpu::conv {
namespace {

std::vector<float> random_image(const Shape& s, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> v(static_cast<std::size_t>(s.pixels()));
  for (float& x : v) x = dist(rng);
  return v;
}

// Pixel by pixel, every tap tested against the border: slow, obviously right.
double direct(const std::vector<float>& in, const std::vector<float>& f, const Shape& s, std::int64_t i, std::int64_t j) {
  double sum = 0;
  for (int p = 0; p < s.k; ++p)
    for (int q = 0; q < s.k; ++q) {
      const std::int64_t r = i + p - s.radius(), c = j + q - s.radius();
      if (r >= 0 && r < s.rows && c >= 0 && c < s.cols)
        sum += static_cast<double>(f[static_cast<std::size_t>(p * s.k + q)]) * in[static_cast<std::size_t>(r * s.cols + c)];
    }
  return sum;
}

// Sizes of one pixel, one row, one column, smaller than the filter, odd, and larger than a 32 x 8
// block in neither or both directions.
const Shape kShapes[] = {{1, 1, 1}, {1, 1, 3}, {1, 37, 5}, {41, 1, 5}, {2, 3, 7}, {67, 129, 3}, {130, 33, 17}, {19, 23, 31}};

TEST(Conv2d, ReferenceMatchesTheDirectLoop) {
  for (const Shape& s : kShapes) {
    const std::vector<float> in = random_image(s, 3), f = make_filter(s.k, 4);
    const Reference ref = reference(in, f, s);
    for (std::int64_t i = 0; i < s.rows; ++i)
      for (std::int64_t j = 0; j < s.cols; ++j) {
        const double want = direct(in, f, s, i, j);
        ASSERT_NEAR(ref.value[static_cast<std::size_t>(i * s.cols + j)], want, 1e-12 * (1 + std::fabs(want))) << s.str() << " at " << i << "," << j;
      }
  }
}

TEST(Conv2d, OpenMpWithinTheBoundOfAk2TermSum) {
  for (const Shape& s : kShapes) {
    const std::vector<float> in = random_image(s, 5), f = make_filter(s.k, 6);
    std::vector<float> out(static_cast<std::size_t>(s.pixels()), std::nanf(""));  // poisoned
    convolve_openmp(in, f, out, s);
    const Reference ref = reference(in, f, s);
    const double ku = s.k * s.k * std::ldexp(1.0, -24), gamma = ku / (1 - ku) + 1e-15;
    for (std::size_t i = 0; i < out.size(); ++i)
      ASSERT_LE(std::fabs(out[i] - ref.value[i]), gamma * ref.magnitude[i]) << s.str() << " at " << i;
  }
}

// All-ones image and filter: an output pixel counts the taps that land inside the image, so the
// zero padding shows exactly: (r + 1)^2 in a corner, (r + 1) k on an edge, k^2 inside.
TEST(Conv2d, ZeroPaddingCountsTheTapsInside) {
  const Shape s{9, 11, 5};
  const std::vector<float> ones(static_cast<std::size_t>(s.pixels()), 1.0f), f(25, 1.0f);
  std::vector<float> out(ones.size(), std::nanf(""));
  convolve_openmp(ones, f, out, s);
  const auto at = [&](std::int64_t i, std::int64_t j) { return out[static_cast<std::size_t>(i * s.cols + j)]; };
  EXPECT_EQ(at(0, 0), 9.0f);
  EXPECT_EQ(at(0, 10), 9.0f);
  EXPECT_EQ(at(8, 0), 9.0f);
  EXPECT_EQ(at(8, 10), 9.0f);
  EXPECT_EQ(at(0, 5), 15.0f);
  EXPECT_EQ(at(4, 0), 15.0f);
  EXPECT_EQ(at(1, 1), 16.0f);
  EXPECT_EQ(at(4, 5), 25.0f);
  const Reference ref = reference(ones, f, s);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(ref.value[i], out[i]) << i;
}

TEST(Conv2d, RefusesEvenOrHugeFiltersAndEmptyImages) {
  EXPECT_THROW(validate({4, 4, 2}), std::invalid_argument);
  EXPECT_THROW(validate({4, 4, 33}), std::invalid_argument);
  EXPECT_THROW(validate({0, 4, 3}), std::invalid_argument);
  EXPECT_NO_THROW(validate({1, 1, 31}));
}

TEST(Conv2d, WorkTableCountsTapsAndBytes) {
  const Work w = conv2d_work({100, 200, 3}, 2);
  EXPECT_EQ(w.flops, 2.0 * 9 * 20000 * 2);
  EXPECT_EQ(w.bytes_min, 4.0 * (2 * 20000 + 9) * 2);
  EXPECT_EQ(w.reads, 1);
  EXPECT_EQ(w.writes, 1);
}

}  // namespace
}  // namespace gpgpu::conv
