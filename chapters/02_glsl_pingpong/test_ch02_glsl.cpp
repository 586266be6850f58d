// Chapter 02 against the double-precision reference on whatever EGL provides (Mesa llvmpipe in
// CI, the GPU elsewhere): both texture layouts and the compute launch, at awkward sizes (1x1,
// widths that are not multiples of 4, odd heights, a grid larger than an L2 cache), from random
// initial guesses, for odd and even iteration counts (the ping-pong parity); the Solver contract;
// NaN poison exposing unwritten texels; the colour map and the PNG. (The GL layer's own tests are
// common/gl/tests/test_gl_layer.cpp.)
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "field_view.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/program.hpp"
#include "gpgpu/gl/test_context.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/png.hpp"
#include "gl_variants.hpp"

namespace {

using gpgpu::jacobi::Grid;
using gpgpu::gl::TestContext;
using ::testing::HasSubstr;

// Initial guesses on the scale of the solution (mV), never all zeros.
using gpgpu::jacobi::checks::random_guess;

// ---- The texture layouts (host side) ----------------------------------------------------------

TEST(FieldLayout, FourPerTexelRowsAreRoundedUp) {
  for (int nx : {1, 2, 3, 4, 5, 7, 8, 9, 17}) {
    const ch02::FieldLayout layout = ch02::rgba_layout({nx, 3});
    EXPECT_EQ(layout.texture_width(), (nx + 3) / 4) << nx;
    EXPECT_EQ(layout.texture_values(), static_cast<std::size_t>((nx + 3) / 4 * 3 * 4)) << nx;
  }
  EXPECT_EQ(ch02::luminance_layout({17, 3}).texture_width(), 17);
}

TEST(FieldLayout, PackPutsFourConsecutiveUnknownsInOneTexelAndPadsTheRest) {
  const Grid g{6, 2};  // 6 = 4 + 2: the second texel of each row has two padding lanes
  std::vector<float> values(12);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k + 1);
  const auto texels = ch02::rgba_layout(g).pack(values, -7.0f);
  const std::vector<float> expected{1, 2, 3, 4, 5, 6, -7, -7, 7, 8, 9, 10, 11, 12, -7, -7};
  EXPECT_EQ(texels, expected);
  EXPECT_EQ(ch02::rgba_layout(g).unpack(texels), values);
}

TEST(FieldLayout, RoundTripsAtAwkwardWidths) {
  for (const Grid g : {Grid{1, 1}, Grid{3, 5}, Grid{17, 33}, Grid{33, 17}, Grid{8, 3}}) {
    const auto values = random_guess(g.nodes(), 5);
    for (const ch02::FieldLayout& layout : {ch02::luminance_layout(g), ch02::rgba_layout(g)})
      EXPECT_EQ(layout.unpack(layout.pack(values, NAN)), values) << g.str();
  }
}

TEST(FieldLayout, RejectsWrongSizes) {
  const std::vector<float> three(3);
  EXPECT_THROW((void)ch02::rgba_layout({2, 2}).pack(three), std::invalid_argument);
  EXPECT_THROW((void)ch02::rgba_layout({2, 2}).unpack(three), std::invalid_argument);
}

// ---- Every variant against the double-precision reference --------------------------------------

struct Case {
  std::string variant;
  Grid grid;
  int iters;
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.variant << " " << c.grid.str() << " " << c.iters << " it."; }

class Ch02Variants : public ::testing::TestWithParam<Case> {};

TEST_P(Ch02Variants, MatchTheDoublePrecisionReference) {
  const Case c = GetParam();
  const ch02::GlVariant& v = ch02::variant(c.variant);
  if (!ch02::supported(v, TestContext::info())) GTEST_SKIP() << "needs OpenGL 4.3 compute shaders";
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = random_guess(sys.grid.nodes(), 17);
  const auto solver = ch02::make_solver(v, sys, TestContext::info());
  solver->reset(x0);  // poisons the other texture with NaN: an unwritten texel cannot pass
  solver->iterate(c.iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver->solution(), sys, x0, c.iters));
}

std::vector<Case> cases() {
  // 1x1: every neighbour is clamped; 3 and 17: widths that leave 1 and 3 padding lanes; 6 leaves 2;
  // 1100x1000 (53 MB per iteration) is larger than an H100's L2; 1 and 2, 7 and 8 iterations
  // end in either texture of the pair.
  const std::vector<std::pair<Grid, int>> sizes{{{1, 1}, 1}, {{1, 1}, 2},   {{3, 5}, 7},     {{3, 5}, 8},
                                                {{6, 9}, 1}, {{17, 33}, 2}, {{17, 33}, 37}, {{33, 17}, 8},
                                                {{5, 1}, 3}, {{1, 7}, 4},   {{1100, 1000}, 3}};
  std::vector<Case> out;
  for (const ch02::GlVariant& v : ch02::kVariants)
    for (const auto& [grid, iters] : sizes) out.push_back({std::string(v.name), grid, iters});
  return out;
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, Ch02Variants, ::testing::ValuesIn(cases()), [](const auto& info) {
  const Case& c = info.param;
  std::string name = c.variant;  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + b + ...
  name += "_g";
  name += c.grid.str();
  name += "_it" + std::to_string(c.iters);
  return name;
});

TEST(Ch02Solver, EveryVariantKeepsTheSolverContract) {
  // 0 iterations give the guess back, 3 + 4 iterations are 7 bit for bit, every call reports a
  // positive time, reset() starts over.
  const auto sys = gpgpu::jacobi::assemble_bidomain({21, 13});
  for (const ch02::GlVariant& v : ch02::kVariants) {
    if (!ch02::supported(v, TestContext::info())) continue;
    const auto solver = ch02::make_solver(v, sys, TestContext::info());
    EXPECT_TRUE(gpgpu::jacobi::checks::keeps_the_solver_contract(*solver, sys)) << v.name;
  }
}

TEST(Ch02Solver, VariantSpecsBuildTheirSolversInTheSessionsContext) {
  // What the chapter run does with a spec: check the grid, build the solver through the session.
  const auto sys = gpgpu::jacobi::assemble_bidomain({9, 7});
  for (const ch02::GlVariant& v : ch02::kVariants) {
    const gpgpu::jacobi::Variant spec = ch02::jacobi_variant(v, gpgpu::gl::opener);
    EXPECT_EQ(spec.info.backend, gpgpu::Backend::gl);
    EXPECT_EQ(spec.pipeline, v.launch == ch02::Launch::Compute ? "compute" : "fragment");
    const auto why = spec.limitation(sys.grid, TestContext::session());
    EXPECT_EQ(why.has_value(), !ch02::supported(v, TestContext::info())) << v.name;
    if (why) continue;
    EXPECT_NO_THROW(spec.check_fits(sys.grid, TestContext::session()));
    const auto solver = spec.make(sys, TestContext::session());
    const auto x0 = random_guess(sys.grid.nodes(), 3);
    solver->reset(x0);
    EXPECT_GT(solver->iterate(2, 0.8f), 0.0);
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver->solution(), sys, x0, 2)) << v.name;
    EXPECT_THAT(solver->launch(), HasSubstr(v.launch == ch02::Launch::Compute ? "compute" : "fragment pass"));
  }
  const int too_wide = TestContext::info().max_texture_size + 1;
  EXPECT_THROW(ch02::jacobi_variant(ch02::variant("luminance"), gpgpu::gl::opener).check_fits({too_wide, 1}, TestContext::session()),
               gpgpu::UsageError);
}

TEST(Ch02Solver, ResetStartsOverAndGivesTheSameBits) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({21, 13});
  const auto x0 = random_guess(sys.grid.nodes(), 8);
  const auto solver = ch02::make_solver(ch02::variant("rgba"), sys, TestContext::info());
  solver->reset(x0);
  solver->iterate(5, 0.8f);
  const auto first = solver->solution();
  solver->reset(x0);
  solver->iterate(5, 0.8f);
  EXPECT_EQ(first, solver->solution());
  EXPECT_NE(first, x0);
}

TEST(Ch02Solver, ObserverSeesEveryIterationAndMayChangeGlState) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({9, 7});
  const auto x0 = random_guess(sys.grid.nodes(), 4);
  const auto a = ch02::make_solver(ch02::variant("luminance"), sys, TestContext::info());
  const auto b = ch02::make_solver(ch02::variant("luminance"), sys, TestContext::info());
  a->reset(x0);
  a->iterate(6, 0.8f);
  // b draws into another framebuffer with another program after every step, as --window does.
  const ch02::FieldView view;
  const gpgpu::gl::RenderTarget scratch =
      gpgpu::gl::make_render_target(gpgpu::gl::make_texture(gpgpu::gl::TexelFormat::RGBA8, 16, 16));
  int calls = 0;
  b->reset(x0);
  b->observe([&](int done, int total) {
    EXPECT_EQ(done, ++calls);
    EXPECT_EQ(total, 6);
    view.pass().bind(scratch);
    view.draw(b->current(), b->layout(), 1.0f, 16, 16);
    return true;
  });
  b->iterate(6, 0.8f);
  EXPECT_EQ(calls, 6);
  EXPECT_EQ(a->solution(), b->solution());
}

TEST(Ch02Solver, AProgramWithoutAnInputUniformIsRefusedByName) {
  const gpgpu::EmbeddedText no_omega{"test/no_omega.frag", R"(#version 330 core
uniform sampler2D x_old;
out float x_new;
void main() { x_new = texelFetch(x_old, ivec2(gl_FragCoord.xy), 0).r; })"};
  EXPECT_THAT([&] {
    ch02::PingPongSolver solver(ch02::luminance_layout({3, 2}), gpgpu::gl::link_fullscreen_program({no_omega}),
                                ch02::Launch::Fragment, {}, TestContext::info());
  }, ::testing::ThrowsMessage<gpgpu::ApiError>(HasSubstr("no active uniform 'omega'")));
}

// A shader that leaves the last column unwritten: the NaN poison must make that visible.
TEST(Ch02Solver, UnwrittenTexelsStayNanAndFailTheCheck) {
  const gpgpu::EmbeddedText lazy{"test/skips_last_column.frag", R"(#version 330 core
uniform sampler2D x_old;
uniform float omega;  // every solver program has it (checked by name); this one only tests it
out float x_new;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  if (p.x == textureSize(x_old, 0).x - 1 || omega <= 0.0) discard;
  x_new = texelFetch(x_old, p, 0).r;
})"};
  const Grid g{7, 4};
  ch02::PingPongSolver solver(ch02::luminance_layout(g), gpgpu::gl::link_fullscreen_program({lazy}),
                              ch02::Launch::Fragment, {}, TestContext::info());
  const auto x0 = random_guess(g.nodes(), 2);
  solver.reset(x0);
  solver.iterate(1, 0.8f);
  const auto got = solver.solution();
  for (int j = 0; j < g.ny; ++j) {
    for (int i = 0; i < g.nx; ++i) {
      const float v = got[static_cast<std::size_t>(j * g.nx + i)];
      if (i == g.nx - 1)
        EXPECT_TRUE(std::isnan(v)) << i << "," << j;
      else
        EXPECT_EQ(v, x0[static_cast<std::size_t>(j * g.nx + i)]) << i << "," << j;
    }
  }
  const std::vector<double> same(x0.begin(), x0.end());
  const auto check = gpgpu::compare_normwise(got, same, 1e-3);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.non_finite, g.ny);
}

TEST(Ch02Solver, TimerMeasuresFinishedWork) {
  const gpgpu::gl::ContextInfo& info = TestContext::info();
  gpgpu::gl::GpuTimer timer(info);
  EXPECT_EQ(timer.uses_query(), info.timer_query);
  EXPECT_EQ(timer.name(), gpgpu::gl::GpuTimer::name(info));
  const auto sys = gpgpu::jacobi::assemble_bidomain({256, 256});
  const auto solver = ch02::make_solver(ch02::variant("luminance"), sys, info);
  solver->reset(random_guess(sys.grid.nodes(), 5));
  // iterate() times itself; GL times one interval at a time, so a timer around it is refused, and
  // the refusal leaves no interval open: the solver's own timing still works afterwards.
  EXPECT_THROW(timer.time([&] { solver->iterate(20, 0.8f); }), std::logic_error);
  // Real work takes time on either clock, and the GPU's share of it cannot outlast the host's
  // interval around it (issue to glFinish); 1% and 1 µs allow for the two clocks' resolutions.
  const double gpu = solver->iterate(20, 0.8f);
  EXPECT_DOUBLE_EQ(gpu, solver->last_timing().gpu_seconds);
  EXPECT_GT(gpu, 0.0);
  EXPECT_LE(gpu, 1.01 * solver->last_timing().wall_seconds + 1e-6);
}

// ---- The colour map and the PNG ---------------------------------------------------------------

TEST(FieldView, ColoursNegativeBlueZeroWhitePositiveRedNanMagenta) {
  const Grid g{4, 1};
  const std::vector<float> values{-2.0f, 0.0f, 2.0f, NAN};
  for (const ch02::FieldLayout& layout : {ch02::luminance_layout(g), ch02::rgba_layout(g)}) {
    const ch02::FieldView view;
    const auto field = layout.make_texture(values);
    const auto rgba = view.render(field, layout, 2.0f);
    ASSERT_EQ(rgba.size(), 16u);
    const auto pixel = [&](int i) { return std::vector<int>(rgba.begin() + 4 * i, rgba.begin() + 4 * i + 4); };
    EXPECT_LT(pixel(0)[0], pixel(0)[2]) << "negative: more blue than red";
    EXPECT_EQ(pixel(1), (std::vector<int>{255, 255, 255, 255})) << "zero: white";
    EXPECT_GT(pixel(2)[0], pixel(2)[2]) << "positive: more red than blue";
    EXPECT_EQ(pixel(3), (std::vector<int>{255, 0, 255, 255})) << "NaN: magenta";
  }
}

TEST(FieldView, PngFileHasTheSignatureAndSize) {
  if (!gpgpu::png_supported()) GTEST_SKIP() << "built without libpng";
  const auto path = std::filesystem::temp_directory_path() / "test_ch02_glsl.png";
  const std::vector<std::uint8_t> pixels(3 * 2 * 4, 128);
  gpgpu::write_png(path.string(), 3, 2, pixels);
  std::ifstream file(path, std::ios::binary);
  char signature[8] = {};
  file.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  char header[16] = {};  // IHDR: length, type, width, height (big-endian)
  file.read(header, 16);
  EXPECT_EQ(static_cast<unsigned char>(header[11]), 3);
  EXPECT_EQ(static_cast<unsigned char>(header[15]), 2);
  std::filesystem::remove(path);
}

}  // namespace
