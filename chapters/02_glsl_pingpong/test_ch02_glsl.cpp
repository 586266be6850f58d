// Chapter 02 against the double-precision reference on whatever EGL provides (Mesa llvmpipe in
// CI, the GPU elsewhere): both texture layouts and the compute launch, at awkward sizes (1x1,
// widths that are not multiples of 4, odd heights, a grid larger than an L2 cache), from random
// initial guesses, for odd and even iteration counts (the ping-pong parity). Also the GL layer's
// promises: errors name the call and the shader file, NaN poison exposes unwritten texels.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "field_view.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/copy_pass.hpp"
#include "gpgpu/gl/program.hpp"
#include "gpgpu/gl/test_context.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/testing/jacobi_check.hpp"
#include "gpgpu/verify.hpp"
#include "png_image.hpp"
#include "variants.hpp"

namespace {

using gpgpu::Grid;
using ::testing::HasSubstr;

// Initial guesses on the scale of the solution (mV), never all zeros.
using gpgpu::testing::random_guess;

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
  const ch02::VariantInfo& v = ch02::variant(c.variant);
  if (!ch02::supported(v, gpgpu::gl::TestContext::info())) GTEST_SKIP() << "needs OpenGL 4.3 compute shaders";
  const auto sys = gpgpu::assemble_bidomain(c.grid);
  const auto x0 = random_guess(sys.grid.nodes(), 17);
  ch02::PingPongSolver solver = ch02::make_solver(v, sys);
  solver.reset(x0);  // poisons the other texture with NaN: an unwritten texel cannot pass
  solver.iterate(c.iters, static_cast<float>(gpgpu::kDefaultOmega));
  EXPECT_TRUE(gpgpu::testing::matches_reference(solver.solution(), sys, x0, c.iters));
}

std::vector<Case> cases() {
  // 1x1: every neighbour is clamped; 3 and 17: widths that leave 1 and 3 padding lanes; 6 leaves 2;
  // 1100x1000 (53 MB per iteration) is larger than an H100's L2; 1 and 2, 7 and 8 iterations
  // end in either texture of the pair.
  const std::vector<std::pair<Grid, int>> sizes{{{1, 1}, 1}, {{1, 1}, 2},   {{3, 5}, 7},     {{3, 5}, 8},
                                                {{6, 9}, 1}, {{17, 33}, 2}, {{17, 33}, 37}, {{33, 17}, 8},
                                                {{5, 1}, 3}, {{1, 7}, 4},   {{1100, 1000}, 3}};
  std::vector<Case> out;
  for (const ch02::VariantInfo& v : ch02::kVariants)
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

TEST(Ch02Solver, ResetStartsOverAndGivesTheSameBits) {
  const auto sys = gpgpu::assemble_bidomain({21, 13});
  const auto x0 = random_guess(sys.grid.nodes(), 8);
  ch02::PingPongSolver solver = ch02::make_solver(ch02::variant("rgba"), sys);
  solver.reset(x0);
  solver.iterate(5, 0.8f);
  const auto first = solver.solution();
  solver.reset(x0);
  solver.iterate(5, 0.8f);
  EXPECT_EQ(first, solver.solution());
  EXPECT_NE(first, x0);
}

TEST(Ch02Solver, ObserverSeesEveryIterationAndMayChangeGlState) {
  const auto sys = gpgpu::assemble_bidomain({9, 7});
  const auto x0 = random_guess(sys.grid.nodes(), 4);
  ch02::PingPongSolver a = ch02::make_solver(ch02::variant("luminance"), sys);
  ch02::PingPongSolver b = ch02::make_solver(ch02::variant("luminance"), sys);
  a.reset(x0);
  a.iterate(6, 0.8f);
  // b draws into another framebuffer with another program after every step, as --window does.
  const ch02::FieldView view;
  const gpgpu::gl::RenderTarget scratch =
      gpgpu::gl::make_render_target(gpgpu::gl::make_texture(gpgpu::gl::TexelFormat::RGBA8, 16, 16));
  int calls = 0;
  b.reset(x0);
  b.iterate(6, 0.8f, [&](int done, int total) {
    EXPECT_EQ(done, ++calls);
    EXPECT_EQ(total, 6);
    view.pass().bind(scratch);
    view.draw(b.current(), b.layout(), 1.0f, 16, 16);
    return true;
  });
  EXPECT_EQ(calls, 6);
  EXPECT_EQ(a.solution(), b.solution());
}

// A shader that leaves the last column unwritten: the NaN poison must make that visible.
TEST(Ch02Solver, AProgramWithoutAnInputUniformIsRefusedByName) {
  const gpgpu::EmbeddedText no_omega{"test/no_omega.frag", R"(#version 330 core
uniform sampler2D x_old;
out float x_new;
void main() { x_new = texelFetch(x_old, ivec2(gl_FragCoord.xy), 0).r; })"};
  EXPECT_THAT([&] {
    ch02::PingPongSolver solver(ch02::luminance_layout({3, 2}), gpgpu::gl::link_fullscreen_program({no_omega}),
                                ch02::Launch::Fragment, {});
  }, ::testing::ThrowsMessage<gpgpu::ApiError>(::testing::HasSubstr("no active uniform 'omega'")));
}

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
                              ch02::Launch::Fragment, {});
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
  const auto check = gpgpu::verify_solution(got, same, 1e-3);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.non_finite, g.ny);
}

// ---- The GL layer -----------------------------------------------------------------------------

TEST(GlLayer, ContextIsCoreProfile33OrNewer) {
  const auto& info = gpgpu::gl::TestContext::info();
  EXPECT_TRUE(info.at_least(3, 3)) << info.version;
  EXPECT_FALSE(info.renderer.empty());
  EXPECT_GE(info.max_texture_size, 1024);
  EXPECT_THAT(info.platform, HasSubstr("EGL"));
}

TEST(GlLayer, CheckedCallNamesTheCallFileLineAndError) {
  try {
    GPGPU_GL(glBindTexture(GL_TEXTURE_2D, 987654u));  // a name never generated: invalid in a core profile
    FAIL() << "no error raised";
  } catch (const gpgpu::ApiError& e) {
    const std::string what = e.what();
    EXPECT_THAT(what, HasSubstr("glBindTexture(GL_TEXTURE_2D, 987654u)"));
    EXPECT_THAT(what, HasSubstr("GL_INVALID_OPERATION"));
    EXPECT_THAT(what, HasSubstr("test_ch02_glsl.cpp:"));
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR)) << "the error flag must be drained";
}

TEST(GlLayer, ErrorNames) {
  EXPECT_EQ(gpgpu::gl::gl_error_name(GL_OUT_OF_MEMORY), "GL_OUT_OF_MEMORY");
  EXPECT_EQ(gpgpu::gl::gl_error_name(0x1234), "GL error 0x1234");
  EXPECT_EQ(gpgpu::gl::egl_error_name(0x3008), "EGL_BAD_DISPLAY");
  EXPECT_EQ(gpgpu::gl::egl_error_name(0x3000), "EGL_SUCCESS");
}

TEST(GlLayer, CompileErrorsCarryTheFileAndTheDriversLog) {
  const gpgpu::EmbeddedText broken{"shaders/broken_on_purpose.frag",
                                   "#version 330 core\nout vec4 c;\nvoid main() { c = no_such_function(); }\n"};
  try {
    (void)gpgpu::gl::link_fullscreen_program({broken});
    FAIL() << "compiled";
  } catch (const gpgpu::ApiError& e) {
    EXPECT_THAT(e.what(), HasSubstr("fragment shader shaders/broken_on_purpose.frag does not compile"));
    EXPECT_THAT(e.what(), HasSubstr("no_such_function"));  // from the driver's info log
  }
}

TEST(GlLayer, CompileErrorsOfSeveralFilesNumberThem) {
  const gpgpu::EmbeddedText head{"a.frag", "#version 330 core\nvec4 f();\nout vec4 c;\nvoid main() { c = f(); }\n"};
  const gpgpu::EmbeddedText body{"b.glsl", "vec4 f() { return oops; }\n"};
  try {
    (void)gpgpu::gl::link_fullscreen_program({head, body});
    FAIL() << "compiled";
  } catch (const gpgpu::ApiError& e) {
    EXPECT_THAT(e.what(), HasSubstr("file 0 = a.frag, file 1 = b.glsl"));
    EXPECT_THAT(e.what(), HasSubstr("oops"));
  }
}

TEST(GlLayer, MissingUniformIsAnError) {
  const gpgpu::gl::Program p = gpgpu::gl::link_fullscreen_program(
      {{"t.frag", "#version 330 core\nuniform float used;\nout vec4 c;\nvoid main() { c = vec4(used); }\n"}});
  EXPECT_GE(gpgpu::gl::uniform_location(p, "used"), 0);
  EXPECT_THROW((void)gpgpu::gl::uniform_location(p, "unused"), gpgpu::ApiError);
}

TEST(GlLayer, PoisonFillsEveryTexelWithNan) {
  const auto target =
      gpgpu::gl::make_render_target(gpgpu::gl::make_texture(gpgpu::gl::TexelFormat::RGBA32F, 5, 3, std::vector<float>(60, 1.0f)));
  gpgpu::gl::poison(target);
  for (const float v : gpgpu::gl::read_back(target.texture)) EXPECT_TRUE(std::isnan(v));
}

TEST(GlLayer, CopyPassCopiesAndReportsAPositiveRate) {
  // The pass reads its copy back and throws if it differs from the source.
  const auto bw = gpgpu::gl::measure_copy_bandwidth(gpgpu::gl::TestContext::info(), 256, 128, 2);
  EXPECT_GT(bw.gbs, 0.0);
  EXPECT_EQ(bw.limit().name, "GL copy pass RGBA32F 256x128");
}

TEST(GlLayer, ComputeCopyCopiesAndReportsAPositiveRate) {
  if (!gpgpu::gl::TestContext::info().compute_shaders) GTEST_SKIP() << "needs OpenGL 4.3 compute shaders";
  const auto bw = gpgpu::gl::measure_copy_bandwidth(gpgpu::gl::TestContext::info(), 250, 130, 2,
                                                    gpgpu::gl::CopyLaunch::Compute);  // not multiples of 16
  EXPECT_GT(bw.gbs, 0.0);
  EXPECT_EQ(bw.limit().name, "GL compute copy RGBA32F 250x130");
}

TEST(GlLayer, TimerMeasuresFinishedWork) {
  const gpgpu::gl::ContextInfo& info = gpgpu::gl::TestContext::info();
  gpgpu::gl::GpuTimer timer(info);
  EXPECT_EQ(timer.uses_query(), info.timer_query);
  const auto sys = gpgpu::assemble_bidomain({256, 256});
  ch02::PingPongSolver solver = ch02::make_solver(ch02::variant("luminance"), sys);
  solver.reset(random_guess(sys.grid.nodes(), 5));
  const auto t = timer.time([&] { solver.iterate(20, 0.8f); });
  // Real work takes time on either clock, and the GPU's share of it cannot outlast the host's
  // interval around it (issue to glFinish); 1% and 1 µs allow for the two clocks' resolutions.
  EXPECT_GT(t.gpu_seconds, 0.0);
  EXPECT_GT(t.wall_seconds, 0.0);
  EXPECT_LE(t.gpu_seconds, 1.01 * t.wall_seconds + 1e-6);
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
  if (!ch02::png_supported()) GTEST_SKIP() << "built without libpng";
  const auto path = std::filesystem::temp_directory_path() / "test_ch02_glsl.png";
  const std::vector<std::uint8_t> pixels(3 * 2 * 4, 128);
  ch02::write_png(path.string(), 3, 2, pixels);
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
