// The GL layer on whatever EGL provides (Mesa llvmpipe in CI, the GPU elsewhere): errors name the
// call and the shader file, NaN poison exposes unwritten texels, the stream shaders compute what
// they claim for every read:write mix and pipeline and are refused beyond the context's limits,
// and the session measures each mix once.
#include <cmath>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/program.hpp"
#include "gpgpu/gl/stream.hpp"
#include "gpgpu/gl/test_context.hpp"
#include "gpgpu/gl/texture.hpp"

namespace {

using ::testing::HasSubstr;
using gpgpu::gl::TestContext;

TEST(GlLayer, ContextIsCoreProfile33OrNewer) {
  const auto& info = TestContext::info();
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
    EXPECT_THAT(what, HasSubstr("test_gl_layer.cpp:"));
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

TEST(GlLayer, PoisonFillsEveryTexelOfEveryRenderTargetWithNan) {
  const auto target =
      gpgpu::gl::make_render_target(gpgpu::gl::make_texture(gpgpu::gl::TexelFormat::R32F, 5, 3, std::vector<float>(15, 1.0f)));
  gpgpu::gl::poison(target);  // one render target
  const auto a = gpgpu::gl::make_texture(gpgpu::gl::TexelFormat::RGBA32F, 4, 2, std::vector<float>(32, 1.0f));
  const auto b = gpgpu::gl::make_texture(gpgpu::gl::TexelFormat::RGBA32F, 4, 2, std::vector<float>(32, 1.0f));
  const gpgpu::gl::Texture2D* both[] = {&a, &b};
  gpgpu::gl::poison(gpgpu::gl::make_framebuffer(both), 2);  // every render target of a framebuffer
  for (const auto* t : {&target.texture, &a, &b})
    for (const float v : gpgpu::gl::read_back(*t)) EXPECT_TRUE(std::isnan(v));
}

// ---- The stream shaders ------------------------------------------------------------------------

TEST(GlStream, ShapeIsTheRgbaLayoutOfASquareGrid) {
  const auto s = gpgpu::gl::stream_shape(1024 * 1024, 16384);  // chapter 02's rgba textures at 1024²
  EXPECT_EQ(s.width, 256);
  EXPECT_EQ(s.height, 1024);
  for (std::size_t floats : {std::size_t{1}, std::size_t{5}, std::size_t{24700}, std::size_t{1000003}}) {
    const auto t = gpgpu::gl::stream_shape(floats, 16384);
    EXPECT_GE(4 * t.texels(), floats) << floats;
    EXPECT_LT(4 * (t.texels() - static_cast<std::size_t>(t.width)), floats) << floats << ": at most one padded row";
  }
  const auto wide = gpgpu::gl::stream_shape(4 * 100 * 100, 100);  // too many rows of 50: wider rows
  EXPECT_LE(wide.height, 100);
  EXPECT_LE(wide.width, 100);
  EXPECT_GE(wide.texels(), 100u * 100u);
  EXPECT_THROW((void)gpgpu::gl::stream_shape(4 * 100 * 100 + 1, 100), gpgpu::UsageError);
}

struct StreamCase {
  int reads, writes;
  gpgpu::gl::Pipeline pipeline;
};

class GlStreamMix : public ::testing::TestWithParam<StreamCase> {};

TEST_P(GlStreamMix, WritesTheSumOfItsInputsAndReportsAPositiveRate) {
  // measure_stream reads every output back and throws unless it is the sum of the inputs.
  const StreamCase c = GetParam();
  if (c.pipeline == gpgpu::gl::Pipeline::Compute && !TestContext::info().compute_shaders)
    GTEST_SKIP() << "needs OpenGL 4.3 compute shaders";
  const gpgpu::gl::StreamShape shape{37, 29};  // no multiple of the 16 x 16 compute groups
  const auto m = gpgpu::gl::measure_stream(TestContext::info(), c.reads, c.writes, shape, c.pipeline, 2);
  EXPECT_GT(m.gbs, 0.0);
  EXPECT_GE(m.passes_per_sample, 1);
  EXPECT_DOUBLE_EQ(m.bytes_per_pass(), 16.0 * (c.reads + c.writes) * 37 * 29);
  EXPECT_EQ(m.name(), "GL " + gpgpu::gl::pipeline_name(c.pipeline) + " stream " + std::to_string(c.reads) + ":" +
                          std::to_string(c.writes) + ", RGBA32F 37x29");
}

INSTANTIATE_TEST_SUITE_P(Mixes, GlStreamMix,
                         ::testing::Values(StreamCase{1, 1, gpgpu::gl::Pipeline::Fragment},
                                           StreamCase{11, 1, gpgpu::gl::Pipeline::Fragment},
                                           StreamCase{3, 4, gpgpu::gl::Pipeline::Fragment},
                                           StreamCase{1, 1, gpgpu::gl::Pipeline::Compute},
                                           StreamCase{7, 1, gpgpu::gl::Pipeline::Compute},
                                           StreamCase{2, 3, gpgpu::gl::Pipeline::Compute}),
                         [](const auto& info) {
                           const StreamCase& c = info.param;
                           return gpgpu::gl::pipeline_name(c.pipeline) + "_" + std::to_string(c.reads) + "_" +
                                  std::to_string(c.writes);
                         });

TEST(GlStream, RefusesMoreRenderTargetsThanTheContextDraws) {
  GLint draw_buffers = 0;
  GPGPU_GL(glGetIntegerv(GL_MAX_DRAW_BUFFERS, &draw_buffers));
  EXPECT_THAT([&] { (void)gpgpu::gl::measure_stream(TestContext::info(), 1, draw_buffers + 1, {4, 4}, gpgpu::gl::Pipeline::Fragment); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("GL_MAX_DRAW_BUFFERS = " + std::to_string(draw_buffers))));
  EXPECT_THROW((void)gpgpu::gl::measure_stream(TestContext::info(), 0, 1, {4, 4}, gpgpu::gl::Pipeline::Fragment),
               std::invalid_argument);
}

TEST(GlStream, PipelineNames) {
  EXPECT_EQ(gpgpu::gl::parse_pipeline(""), gpgpu::gl::Pipeline::Fragment);
  EXPECT_EQ(gpgpu::gl::parse_pipeline("fragment"), gpgpu::gl::Pipeline::Fragment);
  EXPECT_EQ(gpgpu::gl::parse_pipeline("compute"), gpgpu::gl::Pipeline::Compute);
  EXPECT_THROW((void)gpgpu::gl::parse_pipeline("vertex"), std::invalid_argument);
}

// ---- The session and the driver ----------------------------------------------------------------

TEST(GlSession, MeasuresEachMixOnceWithItsWorkingSet) {
  gpgpu::gl::Session& session = TestContext::session();
  const gpgpu::StreamMix mix{11, 1, 190 * 130, 4, 0, "fragment"};
  const gpgpu::Limit a = session.stream_limit(mix);
  const gpgpu::Limit b = session.stream_limit(mix);
  EXPECT_GT(a.gbs, 0.0);
  EXPECT_DOUBLE_EQ(a.gbs, b.gbs);  // cached: the rows of one run share one measurement
  EXPECT_THAT(a.name, HasSubstr("GL fragment stream 11:1"));
  EXPECT_EQ(a.mix, mix.str());
  EXPECT_THAT(a.working_set, HasSubstr("cache-resident")) << "1.2 MB in all";
  EXPECT_TRUE(std::isnan(a.theoretical_gbs));
  const nlohmann::json j = session.json();
  EXPECT_EQ(j["gl_renderer"], session.device());
  ASSERT_FALSE(j["stream_limits"].empty());
  EXPECT_EQ(j["stream_limits"][0]["reads"], 11);
}

TEST(GlSession, ComputeMixesUseTheirOwnPathOrTheFasterOneOnASoftwareRenderer) {
  const auto& info = TestContext::info();
  if (!info.compute_shaders) GTEST_SKIP() << "needs OpenGL 4.3 compute shaders";
  const gpgpu::Limit l = TestContext::session().stream_limit({2, 1, 4000, 4, 0, "compute"});
  EXPECT_GT(l.gbs, 0.0);
  if (info.software) {  // the faster of the two paths, whichever it is here
    EXPECT_THAT(l.name, HasSubstr(" stream 2:1, RGBA32F"));
    EXPECT_THAT(l.name, HasSubstr("the faster path on a software renderer"));
    EXPECT_GE(l.gbs, TestContext::session().stream_limit({2, 1, 4000, 4, 0, "fragment"}).gbs);  // the same measurement
  } else {
    EXPECT_THAT(l.name, HasSubstr("GL compute stream 2:1"));
  }
}

TEST(GlSession, PrintsTheRendererBlock) {
  std::ostringstream out;
  TestContext::session().print(out);
  EXPECT_THAT(out.str(), HasSubstr("GL_RENDERER " + TestContext::info().renderer));
  EXPECT_THAT(out.str(), HasSubstr("Context:  "));
  EXPECT_EQ(TestContext::session().backend(), gpgpu::Backend::gl);
}

TEST(GlOpener, AddsEglToTheOpenGlGroup) {
  const auto parse = [](std::vector<const char*> args) {
    gpgpu::Cli cli("test_gl_layer", "the GL driver's options");
    const auto opener = gpgpu::gl::opener();  // owns the option's value: alive until parsed
    opener->add_options(cli);
    args.insert(args.begin(), "test_gl_layer");
    cli.parse(static_cast<int>(args.size()), args.data());
  };
  EXPECT_NO_THROW(parse({"--egl", "surfaceless"}));
  EXPECT_THROW(parse({"--egl", "x11"}), gpgpu::UsageError);
}

TEST(GlOpener, SessionOfAnotherBackendIsRefused) {
  struct Other final : gpgpu::Session {
    gpgpu::Backend backend() const override { return gpgpu::Backend::cpu; }
    std::string device() const override { return "cpu"; }
    void print(std::ostream&) const override {}
    nlohmann::json json() const override { return {}; }
    gpgpu::Limit stream_limit(const gpgpu::StreamMix&) override { return {}; }
    double cache_bytes() const override { return 0; }
    std::string cache_name() const override { return ""; }
  } other;
  EXPECT_THROW((void)gpgpu::gl::session(other), std::logic_error);
  EXPECT_EQ(&gpgpu::gl::session(TestContext::session()), &TestContext::session());
}

}  // namespace
