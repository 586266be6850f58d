/// @file ping_pong.hpp
/// @brief The paper's ping-pong (section 5): two solution textures, each attached to a
/// framebuffer object; every iteration reads one and renders into the other, then they swap
/// roles, because a texture must not be read and written in the same pass.
///
/// The solver is generic in its shader and inputs, so the chapter's variants (gl_variants.hpp) and the
/// exercise (exercises/02_symmetric_shader) share it: a program whose shaders read `x_old` and
/// `omega` and any number of input textures (sampler uniforms, arrays allowed), and write the
/// next iterate; the layout says how the unknowns sit in the textures. It is the
/// gpgpu::jacobi::Solver of chapter 02: iterate() returns the GPU time of its iterations.
#pragma once
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "field_layout.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/fullscreen.hpp"
#include "gpgpu/gl/objects.hpp"
#include "gpgpu/gl/texture.hpp"
#include "gpgpu/gl/timer.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch02 {

/// Input textures bound to one sampler uniform: a plain `sampler2D f` (one texture) or an array
/// `sampler2D A[9]` (one texture per element).
struct SamplerInput {
  std::string uniform;
  std::vector<gpgpu::gl::Texture2D> textures;
};

/// How one iteration runs the program.
enum class Launch {
  Fragment,  ///< a full-screen triangle into the framebuffer of the target texture (the paper)
  Compute,   ///< glDispatchCompute; the program stores into image unit 0 (`x_new`)
};

/// Called after each iteration with (iterations done, total). It may issue GL commands of its own
/// (draw a window) and then returns true, so that the solver restores its state; a progress
/// report returns false and costs the loop nothing more.
using StepObserver = std::function<bool(int, int)>;

class PingPongSolver final : public gpgpu::jacobi::Solver {
 public:
  /// `info` describes the current context (its timer: GL_TIME_ELAPSED or the host clock).
  PingPongSolver(FieldLayout layout, gpgpu::gl::Program program, Launch launch, std::vector<SamplerInput> inputs,
                 const gpgpu::gl::ContextInfo& info);

  /// Uploads the initial guess (nx*ny values; padding lanes 0) into one texture and fills the
  /// other with NaN, so any texel the first iteration does not write fails the verification.
  void reset(std::span<const float> x0) override;
  /// Runs `iters` weighted Jacobi iterations with weight `omega` (the timed part) and returns
  /// their GPU time (GpuTimer); last_timing() has the host clock beside it.
  double iterate(int iters, float omega) override;
  /// Reads the current iterate back (nx*ny values).
  [[nodiscard]] std::vector<float> solution() override;
  /// "fragment pass, 48x130 GL_RGBA32F texels" or "compute, 16x16 invocations per group, 3x9 groups".
  [[nodiscard]] std::string launch() const override;

  /// Called after every iteration from now on (empty: none).
  void observe(StepObserver after_step) { after_step_ = std::move(after_step); }
  /// The GPU and host times of the last iterate().
  [[nodiscard]] const gpgpu::gl::GlTiming& last_timing() const { return last_timing_; }
  /// The texture holding the current iterate.
  [[nodiscard]] const gpgpu::gl::Texture2D& current() const { return fields_[current_].texture; }
  [[nodiscard]] const FieldLayout& layout() const { return layout_; }

 private:
  void bind_state(float omega) const;  // program, uniforms, inputs, framebuffer geometry
  void step();                         // one iteration: fields_[current_] -> the other

  FieldLayout layout_;
  gpgpu::gl::Program program_;
  Launch launch_;
  std::vector<SamplerInput> inputs_;
  std::vector<gpgpu::gl::RenderTarget> fields_;  // the two iterates
  int current_ = 0;
  gpgpu::gl::FullscreenPass pass_;
  gpgpu::gl::GpuTimer timer_;
  gpgpu::gl::GlTiming last_timing_;
  StepObserver after_step_;
  GLint work_group_[3] = {1, 1, 1};  // compute launches: the shader's local size
  // Uniform locations, looked up once: a name the program lacks is an error that names it.
  GLint omega_at_ = -1;
  GLint x_old_at_ = -1;
  std::vector<GLint> input_at_;  // one per texture of inputs_, in order (texture units 1, 2, ...)
};

}  // namespace ch02
