// Chapter 12's OpenGL variants (label gl; llvmpipe in CI, exit 77 where no EGL context can be made):
// the quadrant packing on its own (the RGBA shader's arithmetic emulated on the host over the
// packed texels gives the reference), then both shaders within the error bound at one pixel, one
// row, one column, odd sides (the quadrants' last row or column is padding), k = 1, 3, 5 up to the
// chapter's 31, one image past the last-level cache; the zero-padded border exactly; the output
// poisoned before every run (routine_checks) so a pixel left unwritten cannot pass.
#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>
#include <tuple>

#include <gtest/gtest.h>

#include "gl_variants.hpp"
#include "gpgpu/blas/routine_checks.hpp"
#include "gpgpu/gl/test_context.hpp"
#include "variants.hpp"

namespace gpgpu::blas {
// A failing parameterised test names the variant rather than dumping its bytes.
void PrintTo(const RoutineVariant& v, std::ostream* out) { *out << v.info.name; }
}  // namespace gpgpu::blas

namespace {

using gpgpu::blas::Case;
using gpgpu::blas::Routine;
using gpgpu::blas::RoutineSizes;
namespace checks = gpgpu::blas::routine_checks;

// Rows, columns, k: the brief's awkward shapes for the packing (odd sides, sides of 1 and 2).
const std::tuple<int, int, int> kShapes[] = {{1, 1, 1},   {1, 1, 3},   {1, 1, 5},  {1, 40, 3}, {40, 1, 5}, {2, 2, 5},
                                             {3, 3, 5},   {37, 53, 1}, {37, 53, 3}, {37, 53, 5}, {36, 54, 5}, {5, 8, 31}};

RoutineSizes sizes(int rows, int cols, int k) {
  RoutineSizes s;
  s.image = {rows, cols, k};
  return s;
}

// The RGBA shader's arithmetic on the host: each texel of the output is the sum over the taps of
// f(p, q) times the packed texel at (b + q, a + p), all four channels at once. Unpacked, it must be
// the convolution: so the packing holds the right pixels, halo included, at every seam and border.
TEST(QuadrantPacking, TheShadersArithmeticOnThePackingIsTheConvolution) {
  for (const auto& [rows, cols, k] : kShapes) {
    const Case c = gpgpu::blas::make_case(Routine::conv2d, sizes(rows, cols, k), 5);
    const ch12::QuadrantPacking q(rows, cols, k);
    const std::vector<float> in = q.pack(c.a);
    ASSERT_EQ(in.size(), static_cast<std::size_t>(4 * q.texture_rows() * q.texture_cols()));
    std::vector<float> out(static_cast<std::size_t>(4 * q.h() * q.w()));
    for (std::int64_t a = 0; a < q.h(); ++a)
      for (std::int64_t b = 0; b < q.w(); ++b)
        for (int ch = 0; ch < 4; ++ch) {
          double sum = 0;
          for (int p = 0; p < k; ++p)
            for (int t = 0; t < k; ++t)
              sum += double{c.b[static_cast<std::size_t>(p * k + t)]} *
                     in[static_cast<std::size_t>(4 * ((a + p) * q.texture_cols() + b + t) + ch)];
          out[static_cast<std::size_t>(4 * (a * q.w() + b) + ch)] = static_cast<float>(sum);
        }
    std::vector<float> image(static_cast<std::size_t>(rows * cols), std::nanf(""));
    q.unpack(out, image);
    const gpgpu::Verification v = gpgpu::blas::compare(image, gpgpu::blas::reference(c));
    EXPECT_TRUE(v.pass) << rows << "x" << cols << ", k = " << k << ": " << v.summary();
  }
}

// Unpacking writes every pixel of the image (it starts as NaN) from the right texel and channel.
TEST(QuadrantPacking, UnpackWritesEveryPixelFromItsQuadrant) {
  for (const auto& [rows, cols, k] : kShapes) {
    const ch12::QuadrantPacking q(rows, cols, k);
    std::vector<float> texels(static_cast<std::size_t>(4 * q.h() * q.w()));
    for (std::int64_t a = 0; a < q.h(); ++a)  // channel c of texel (a, b): the pixel it stands for, as a number
      for (std::int64_t b = 0; b < q.w(); ++b)
        for (int ch = 0; ch < 4; ++ch)
          texels[static_cast<std::size_t>(4 * (a * q.w() + b) + ch)] = static_cast<float>(((ch / 2) * q.h() + a) * 1000 + (ch % 2) * q.w() + b);
    std::vector<float> image(static_cast<std::size_t>(rows * cols), std::nanf(""));
    q.unpack(texels, image);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) ASSERT_EQ(image[static_cast<std::size_t>(i * cols + j)], static_cast<float>(i * 1000 + j)) << i << ", " << j;
  }
}

TEST(QuadrantPacking, RefusesArraysOfOtherSizes) {
  const ch12::QuadrantPacking q(5, 7, 3);
  EXPECT_THROW((void)q.pack(std::vector<float>(34)), std::invalid_argument);
  std::vector<float> image(35);
  EXPECT_THROW(q.unpack(std::vector<float>(4 * 3 * 4 - 1), image), std::invalid_argument);
}

class GlVariant : public ::testing::TestWithParam<gpgpu::blas::RoutineVariant> {};

TEST_P(GlVariant, WithinTheBoundAtAwkwardSizes) {
  for (const RoutineSizes& s : checks::awkward_sizes(Routine::conv2d, checks::Reach::past_llc))
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), s, gpgpu::gl::TestContext::session()));
  for (const auto& [rows, cols, k] : kShapes)
    EXPECT_TRUE(checks::runs_within_bound(GetParam(), sizes(rows, cols, k), gpgpu::gl::TestContext::session()));
}

// An image of ones and a filter of ones: each output is the number of taps that land inside the
// image, k² inside, fewer along the border, fewest in the corners; small integers, so exact.
TEST_P(GlVariant, ZeroPaddingAtTheBorderExactly) {
  for (const auto& [rows, cols, k] : {std::tuple{7, 9, 5}, {5, 4, 3}, {1, 6, 3}, {4, 4, 7}, {37, 53, 5}}) {
    Case c = gpgpu::blas::make_case(Routine::conv2d, sizes(rows, cols, k), 3);
    std::fill(c.a.begin(), c.a.end(), 1.0f);
    std::fill(c.b.begin(), c.b.end(), 1.0f);
    const std::unique_ptr<gpgpu::blas::RoutineOperation> op = GetParam().make(c, gpgpu::gl::TestContext::session());
    op->upload(c);
    (void)op->run(1);
    const std::vector<float> out = op->download();
    ASSERT_EQ(out.size(), static_cast<std::size_t>(rows * cols));
    const int r = k / 2;
    const auto inside = [r](int i, int n) { return std::min(i + r, n - 1) - std::max(i - r, 0) + 1; };
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        ASSERT_EQ(out[static_cast<std::size_t>(i * cols + j)], static_cast<float>(inside(i, rows) * inside(j, cols)))
            << GetParam().info.name << ", " << rows << "x" << cols << ", k = " << k << ", pixel " << i << ", " << j;
  }
}

// The timed path: several calls back to back leave the same (verified) result, and a time.
TEST_P(GlVariant, RepeatedCallsGiveTheSameResult) {
  const Case c = gpgpu::blas::make_case(Routine::conv2d, sizes(37, 53, 5), 9);
  const std::unique_ptr<gpgpu::blas::RoutineOperation> op = GetParam().make(c, gpgpu::gl::TestContext::session());
  op->upload(c);
  EXPECT_GT(op->run(5), 0.0);
  const gpgpu::Verification v = gpgpu::blas::compare(op->download(), gpgpu::blas::reference(c));
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_TRUE(op->with_copies(c, false).has_value());
  EXPECT_FALSE(op->with_copies(c, true).has_value());
}

INSTANTIATE_TEST_SUITE_P(Ch12, GlVariant, ::testing::ValuesIn(ch12::gl_variants()),
                         [](const auto& info) { return info.param.info.name; });

}  // namespace
