#include "gpgpu/gl/copy_pass.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "embedded/copy_comp.hpp"
#include "embedded/copy_frag.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/fullscreen.hpp"
#include "gpgpu/gl/program.hpp"
#include "gpgpu/gl/texture.hpp"
#include "gpgpu/gl/timer.hpp"

namespace gpgpu::gl {
namespace {

constexpr int kCopiesPerSample = 4;  // amortises the glFinish() between samples

// Data that no memory compression can shrink (a cleared or constant texture might not be read
// from memory at all on some GPUs).
std::vector<float> pseudo_random(std::size_t n) {
  std::vector<float> v(n);
  std::uint32_t state = 2463534242u;
  for (float& x : v) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x = static_cast<float>(state >> 8) * (1.0f / 16777216.0f);
  }
  return v;
}

}  // namespace

Limit CopyBandwidth::limit() const {
  return {std::string(launch == CopyLaunch::Compute ? "GL compute copy" : "GL copy pass") + " RGBA32F " +
              std::to_string(width) + "x" + std::to_string(height),
          gbs};
}

void default_copy_size(const ContextInfo& info, int& width, int& height) {
  width = std::min(info.software ? 2048 : 4096, info.max_texture_size);
  height = std::min(2048, info.max_texture_size);
}

CopyBandwidth measure_copy_bandwidth(const ContextInfo& info, int width, int height, int samples, CopyLaunch launch) {
  const double bytes = 16.0 * width * height;
  require_texture_memory(info, 2 * bytes, "the GL copy pass");
  const std::vector<float> data = pseudo_random(static_cast<std::size_t>(width) * height * 4);
  const Texture2D source = make_texture(TexelFormat::RGBA32F, width, height, data);
  const RenderTarget target = make_render_target(make_texture(TexelFormat::RGBA32F, width, height));
  const bool compute = launch == CopyLaunch::Compute;
  if (compute) require_compute_functions();
  const Program program = compute ? link_program({{GL_COMPUTE_SHADER, {embedded::copy_comp}}})
                                  : link_fullscreen_program({embedded::copy_frag});
  const FullscreenPass pass;

  GPGPU_GL(glUseProgram(program.id()));
  GPGPU_GL(glUniform1i(uniform_location(program, "source"), 0));
  GPGPU_GL(glActiveTexture(GL_TEXTURE0));
  GPGPU_GL(glBindTexture(GL_TEXTURE_2D, source.id()));
  if (compute)
    GPGPU_GL(glBindImageTexture(0, target.texture.id(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F));
  else
    pass.bind(target);

  GpuTimer timer(info);
  const auto copies = [&] {
    for (int i = 0; i < kCopiesPerSample; ++i) {
      if (compute)
        GPGPU_GL(glDispatchCompute(static_cast<GLuint>((width + 15) / 16), static_cast<GLuint>((height + 15) / 16), 1));
      else
        pass.draw();
    }
  };
  timer.time(copies);  // warm-up: shader compilation in the driver, first touch of the memory
  CopyBandwidth result{0, width, height, samples, timer.name(), launch};
  for (int s = 0; s < samples; ++s) {
    const GlTiming t = timer.time(copies);
    result.gbs = std::max(result.gbs, 2.0 * bytes * kCopiesPerSample / t.gpu_seconds / 1e9);
  }
  if (compute) GPGPU_GL(glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT));  // imageStore before glGetTexImage
  if (read_back(target.texture) != data)
    throw ApiError(describe_failed_call("GL copy pass", __FILE__, __LINE__, "the copy differs from its source"));
  return result;
}

}  // namespace gpgpu::gl
