// Chapter 02's host code: its variants (which shaders, which layout) and the ping-pong solver that
// runs them, drawing one full-screen pass (or dispatching one compute grid) per iteration.
#include "ping_pong.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "embedded/_02_01_luminance_frag.hpp"
#include "embedded/_02_03_rgba_comp.hpp"
#include "embedded/_02_02_rgba_frag.hpp"
#include "embedded/_02_rgba_glsl.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/opener.hpp"
#include "gpgpu/gl/program.hpp"

namespace ch02 {

namespace embedded = gpgpu::embedded;
using gpgpu::jacobi::Dir;

const GlVariant& variant(std::string_view name) {
  for (const GlVariant& v : kVariants)
    if (v.name == name) return v;
  throw std::out_of_range("unknown variant '" + std::string(name) + "'");
}

bool supported(const GlVariant& v, const gpgpu::gl::ContextInfo& info) {
  return v.launch == Launch::Fragment || info.compute_shaders;
}

double texture_bytes(const GlVariant& v, gpgpu::jacobi::Grid grid) {
  const FieldLayout layout{grid, v.unknowns_per_texel};
  return 12.0 * 4.0 * static_cast<double>(layout.texture_values());  // 9 diagonals, f, 2 iterates
}

std::vector<SamplerInput> system_inputs(const gpgpu::jacobi::LinearSystem& sys, const FieldLayout& layout) {
  SamplerInput diagonals{"A", {}};
  for (const Dir d : gpgpu::jacobi::kAllDirs)
    diagonals.textures.push_back(layout.make_texture(sys.A.diag[gpgpu::jacobi::idx(d)], d == Dir::C ? 1.0f : 0.0f));
  SamplerInput rhs{"f", {}};
  rhs.textures.push_back(layout.make_texture(sys.rhs));
  std::vector<SamplerInput> inputs;
  inputs.push_back(std::move(diagonals));
  inputs.push_back(std::move(rhs));
  return inputs;
}

//! [make_solver]
std::unique_ptr<PingPongSolver> make_solver(const GlVariant& v, const gpgpu::jacobi::LinearSystem& sys,
                                            const gpgpu::gl::ContextInfo& info) {
  const FieldLayout layout{sys.grid, v.unknowns_per_texel};
  gpgpu::gl::Program program =
      v.launch == Launch::Compute ? gpgpu::gl::link_program({{GL_COMPUTE_SHADER, {embedded::_02_03_rgba_comp, embedded::_02_rgba_glsl}}})
      : v.unknowns_per_texel == 4 ? gpgpu::gl::link_fullscreen_program({embedded::_02_02_rgba_frag, embedded::_02_rgba_glsl})
                                  : gpgpu::gl::link_fullscreen_program({embedded::_02_01_luminance_frag});
  return std::make_unique<PingPongSolver>(layout, std::move(program), v.launch, system_inputs(sys, layout), info);
}
//! [make_solver]

//! [variant]
gpgpu::jacobi::Variant jacobi_variant(const GlVariant& v, gpgpu::OpenerFactory opener) {
  gpgpu::jacobi::Variant s;
  s.info = {std::string(v.name), gpgpu::Backend::gl, std::string(v.description), std::string(v.source),
            std::string(v.paper_name), "GL_TIME_ELAPSED, or host clock after glFinish"};
  s.opener = opener;
  s.pipeline = v.launch == Launch::Compute ? "compute" : "fragment";
  s.make = [&v](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& session) -> std::unique_ptr<gpgpu::jacobi::Solver> {
    return make_solver(v, sys, gpgpu::gl::session(session).info());
  };
  // Refuses, before any allocation, grids whose textures exceed the GL limits of the context.
  s.check_fits = [&v](const gpgpu::jacobi::Grid& grid, gpgpu::Session& session) {
    const gpgpu::gl::ContextInfo& info = gpgpu::gl::session(session).info();
    const FieldLayout layout{grid, v.unknowns_per_texel};
    if (layout.texture_width() > info.max_texture_size || layout.texture_height() > info.max_texture_size)
      throw gpgpu::UsageError("grid " + grid.str() + ": the " + std::string(v.name) + " variant needs " +
                              std::to_string(layout.texture_width()) + "x" + std::to_string(layout.texture_height()) +
                              " textures, more than GL_MAX_TEXTURE_SIZE " + std::to_string(info.max_texture_size) +
                              " of " + info.renderer);
    gpgpu::gl::require_texture_memory(info, texture_bytes(v, grid), "grid " + grid.str());  // one variant's at a time
  };
  s.limitation = [&v](const gpgpu::jacobi::Grid&, gpgpu::Session& session) -> std::optional<std::string> {
    const gpgpu::gl::ContextInfo& info = gpgpu::gl::session(session).info();
    if (supported(v, info)) return std::nullopt;
    return "needs OpenGL 4.3 compute shaders (this context: " + info.version + ")";
  };
  return s;
}
//! [variant]


using namespace gpgpu::gl;

namespace {
// Work groups of `group` invocations that cover `size` texels (the last one partly idle).
int groups(int size, GLint group) { return (size + group - 1) / group; }
}  // namespace

PingPongSolver::PingPongSolver(FieldLayout layout, Program program, Launch launch, std::vector<SamplerInput> inputs,
                               const ContextInfo& info)
    : layout_(layout), program_(std::move(program)), launch_(launch), inputs_(std::move(inputs)), timer_(info) {
  for (int i = 0; i < 2; ++i)
    fields_.push_back(make_render_target(make_texture(layout_.format(), layout_.texture_width(), layout_.texture_height())));
  if (launch_ == Launch::Compute) {
    require_compute_functions();
    GPGPU_GL(glGetProgramiv(program_.id(), GL_COMPUTE_WORK_GROUP_SIZE, work_group_));
  }
  omega_at_ = uniform_location(program_, "omega");
  x_old_at_ = uniform_location(program_, "x_old");
  for (const SamplerInput& input : inputs_)
    for (std::size_t i = 0; i < input.textures.size(); ++i) {
      const std::string name = input.textures.size() == 1 ? input.uniform : input.uniform + "[" + std::to_string(i) + "]";
      input_at_.push_back(uniform_location(program_, name.c_str()));
    }
}

void PingPongSolver::reset(std::span<const float> x0) {
  upload(fields_[0].texture, layout_.pack(x0, 0.0f));
  poison(fields_[1]);
  current_ = 0;
}

void PingPongSolver::bind_state(float omega) const {
  GPGPU_GL(glUseProgram(program_.id()));
  GPGPU_GL(glUniform1f(omega_at_, omega));
  GPGPU_GL(glUniform1i(x_old_at_, 0));  // texture unit 0: switched every iteration
  GLint unit = 1;
  for (const SamplerInput& input : inputs_) {
    for (const Texture2D& texture : input.textures) {
      GPGPU_GL(glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit)));
      GPGPU_GL(glBindTexture(GL_TEXTURE_2D, texture.id()));
      GPGPU_GL(glUniform1i(input_at_[static_cast<std::size_t>(unit - 1)], unit));
      ++unit;
    }
  }
  GPGPU_GL(glActiveTexture(GL_TEXTURE0));
  if (launch_ == Launch::Fragment) pass_.bind(fields_[0]);  // both fields have the same size
}

//! [step]
void PingPongSolver::step() {
  const RenderTarget& in = fields_[current_];
  const RenderTarget& out = fields_[1 - current_];
  GPGPU_GL(glBindTexture(GL_TEXTURE_2D, in.texture.id()));
  if (launch_ == Launch::Fragment) {
    GPGPU_GL(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, out.framebuffer.id()));
    pass_.draw();
  } else {
    GPGPU_GL(glBindImageTexture(0, out.texture.id(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                                layout_.unknowns_per_texel == 1 ? GL_R32F : GL_RGBA32F));
    GPGPU_GL(glDispatchCompute(static_cast<GLuint>(groups(out.texture.width, work_group_[0])),
                               static_cast<GLuint>(groups(out.texture.height, work_group_[1])), 1));
    // The next iteration reads with texelFetch what this one stored with imageStore.
    GPGPU_GL(glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT));
  }
  current_ = 1 - current_;
}
//! [step]

double PingPongSolver::iterate(int iters, float omega) {
  last_timing_ = timer_.time([&] {
    bind_state(omega);
    for (int it = 0; it < iters; ++it) {
      step();
      if (after_step_ && after_step_(it + 1, iters)) bind_state(omega);
    }
  });
  return last_timing_.gpu_seconds;
}

std::vector<float> PingPongSolver::solution() { return layout_.unpack(read_back(current())); }

std::string PingPongSolver::launch() const {
  const Texture2D& t = fields_[0].texture;
  const std::string texels = std::to_string(t.width) + "x" + std::to_string(t.height);
  const char* format = layout_.unknowns_per_texel == 1 ? " GL_R32F" : " GL_RGBA32F";
  if (launch_ == Launch::Fragment) return "fragment pass, " + texels + format + " texels";
  return "compute, " + std::to_string(work_group_[0]) + "x" + std::to_string(work_group_[1]) +
         " invocations per group, " + std::to_string(groups(t.width, work_group_[0])) + "x" +
         std::to_string(groups(t.height, work_group_[1])) + " groups over " + texels + format + " texels";
}

}  // namespace ch02
