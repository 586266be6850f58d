// The check of exercise 02, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`): the shader gets only the five stored diagonals C, E, NW, N, NE of the
// symmetric matrix, and must still give the iterates of the 9-diagonal double-precision
// reference, at awkward sizes (1x1, one row, one column, odd sizes) and iteration counts, at the
// default ω and at another (a shader that hard-codes ω = 0.8 fails). texelFetch outside a texture
// is undefined in GLSL, and llvmpipe happens to return 0 there, the zero coupling the border needs:
// so the check compiles the shader with texelFetch wrapped to return NaN outside the texture, and a
// shader that reads its neighbours' coefficients without testing the grid's edge fails everywhere.
// Measure.* reports its rate beside the chapter's luminance shader (no timed assertion).
#include <iostream>
#include <memory>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "embedded/jacobi_symmetric_frag.hpp"
#include "gpgpu/gl/program.hpp"
#include "gpgpu/gl/test_context.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gl_variants.hpp"

namespace {

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::Grid;

// The shader's inputs: `A` holds C, E, NW, N, NE (in that order) as GL_R32F textures, and `f`.
std::vector<ch02::SamplerInput> symmetric_inputs(const gpgpu::jacobi::LinearSystem& sys) {
  const ch02::FieldLayout layout = ch02::luminance_layout(sys.grid);
  ch02::SamplerInput upper{"A", {}};
  for (const Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE})
    upper.textures.push_back(layout.make_texture(sys.A.diag[gpgpu::jacobi::idx(d)]));
  ch02::SamplerInput rhs{"f", {}};
  rhs.textures.push_back(layout.make_texture(sys.rhs));
  std::vector<ch02::SamplerInput> inputs;
  inputs.push_back(std::move(upper));
  inputs.push_back(std::move(rhs));
  return inputs;
}

// The student's shader as the correctness tests compile it: texelFetch returns NaN outside the
// texture (one undefined result GLSL allows) instead of llvmpipe's 0. The wrapper goes after the
// #version line, and #line keeps the compiler's line numbers those of the student's file.
std::string shader_with_checked_fetches() {
  const std::string_view text = gpgpu::embedded::jacobi_symmetric_frag.text;
  const std::size_t body = text.find('\n') + 1;
  return std::string(text.substr(0, body)) +
         "vec4 texelFetch_inside_only(sampler2D s, ivec2 p, int lod) {\n"
         "  if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, textureSize(s, lod))))\n"
         "    return vec4(uintBitsToFloat(0x7fc00000u));  // NaN\n"
         "  return texelFetch(s, p, lod);\n"
         "}\n"
         "#define texelFetch texelFetch_inside_only\n"
         "#line 2\n" +
         std::string(text.substr(body));
}

// What a non-finite result may mean here.
constexpr const char* kOutsideFetch = "(in this check texelFetch outside a texture returns NaN: a shader that fetches "
                                      "a neighbour's coefficient beyond the grid's edge gets NaN there)";

std::unique_ptr<ch02::PingPongSolver> checked_solver(const gpgpu::jacobi::LinearSystem& sys) {
  static const std::string source = shader_with_checked_fetches();
  const gpgpu::EmbeddedText file{gpgpu::embedded::jacobi_symmetric_frag.path, source};
  return std::make_unique<ch02::PingPongSolver>(ch02::luminance_layout(sys.grid), gpgpu::gl::link_fullscreen_program({file}),
                                                ch02::Launch::Fragment, symmetric_inputs(sys),
                                                gpgpu::gl::TestContext::info());
}

class SymmetricShader : public ::testing::TestWithParam<Grid> {};

TEST_P(SymmetricShader, MatchesTheNineDiagonalReference) {
  const Grid g = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const auto solver = checked_solver(sys);
  const auto x0 = gpgpu::jacobi::checks::random_guess(g.nodes(), 23, -5.0f, 5.0f);
  for (int iters : {1, 2, 37}) {
    solver->reset(x0);  // NaN in the other texture: a pixel the shader skips fails
    solver->iterate(iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver->solution(), sys, x0, iters)) << kOutsideFetch;
  }
}

// The shader must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST_P(SymmetricShader, UsesTheOmegaItIsGiven) {
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [](const auto& sys, std::span<const float> x0, int iters, double omega) {
        const auto solver = checked_solver(sys);
        solver->reset(x0);
        solver->iterate(iters, static_cast<float>(omega));
        return solver->solution();
      },
      GetParam()))
      << kOutsideFetch;
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SymmetricShader,
                         ::testing::Values(Grid{1, 1}, Grid{2, 7}, Grid{7, 2}, Grid{1, 9}, Grid{9, 1}, Grid{17, 33},
                                           Grid{64, 48}),
                         [](const auto& info) { return info.param.str(); });

// The measurement: your shader beside the chapter's nine-diagonal luminance shader on the same
// context, each held against the limit this context's fragment path reaches for the shader's
// read:write mix (7:1 for yours, 11:1 for the chapter's), measured in the same run. On llvmpipe
// (CI) the grid is small and the figures are a CPU's; run it on a GPU for the real ones. It asserts
// only that the timed shader computes the iteration.
TEST(Measure, YourShaderBesideTheLuminanceShaderAgainstTheLimit) {
  gpgpu::Session& gl = gpgpu::gl::TestContext::session();
  const bool software = gpgpu::gl::TestContext::info().software;
  const Grid g = software ? Grid{256, 256} : Grid{2048, 2048};
  const int iters = software ? 5 : 50;
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  const auto omega = static_cast<float>(gpgpu::jacobi::kDefaultOmega);
  for (const char* kernel : {"jacobi9_symmetric", "jacobi9"}) {
    const bool yours = std::string(kernel) == "jacobi9_symmetric";
    const auto solver = yours ? std::make_unique<ch02::PingPongSolver>(
                                    ch02::luminance_layout(g),
                                    gpgpu::gl::link_fullscreen_program({gpgpu::embedded::jacobi_symmetric_frag}),
                                    ch02::Launch::Fragment, symmetric_inputs(sys), gpgpu::gl::TestContext::info())
                              : ch02::make_solver(ch02::variant("luminance"), sys, gpgpu::gl::TestContext::info());
    gpgpu::StreamMix mix = gpgpu::jacobi::stream_mix(kernel, g);
    mix.pipeline = "fragment";
    solver->reset(x0);
    gpgpu::jacobi::measure::report(std::cout, yours ? "your shader (5 diagonals)" : "the luminance shader (9 diagonals)",
                                   gpgpu::jacobi::work(kernel, g, iters), gl.stream_limit(mix),
                                   [&] { return solver->iterate(iters, omega); }, 3);
    solver->reset(x0);
    solver->iterate(2, omega);
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver->solution(), sys, x0, 2)) << kernel;
  }
}

}  // namespace
