// The paper's ping-pong solver: one full-screen pass (or one compute grid) per iteration, from one
// iterate texture into the other.
#include "ping_pong.hpp"

#include <string>

#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/program.hpp"

namespace ch02 {

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
