#include "field_view.hpp"

#include <algorithm>
#include <cmath>

#include "embedded/_02_colormap_frag.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/program.hpp"

namespace ch02 {

using namespace gpgpu::gl;

namespace {
template <typename T>
float largest_magnitude(std::span<const T> values) {
  double m = 0;
  for (const T v : values)
    if (std::isfinite(v)) m = std::max(m, std::abs(static_cast<double>(v)));
  return m > 0 ? static_cast<float>(m) : 1.0f;
}
}  // namespace

std::vector<std::uint8_t> read_pixels_rgba8(int width, int height) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  GPGPU_GL(glPixelStorei(GL_PACK_ALIGNMENT, 1));
  GPGPU_GL(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out.data()));
  return out;
}

float colour_scale(std::span<const float> values) { return largest_magnitude(values); }
float colour_scale(std::span<const double> values) { return largest_magnitude(values); }

FieldView::FieldView() : program_(link_fullscreen_program({gpgpu::embedded::_02_colormap_frag})) {}

void FieldView::draw(const Texture2D& field, const FieldLayout& layout, float scale, int width, int height) const {
  GPGPU_GL(glUseProgram(program_.id()));
  GPGPU_GL(glUniform1i(uniform_location(program_, "field"), 0));
  GPGPU_GL(glUniform1i(uniform_location(program_, "unknowns_per_texel"), layout.unknowns_per_texel));
  GPGPU_GL(glUniform2i(uniform_location(program_, "grid"), layout.grid.nx, layout.grid.ny));
  GPGPU_GL(glUniform2f(uniform_location(program_, "viewport"), static_cast<float>(width), static_cast<float>(height)));
  GPGPU_GL(glUniform1f(uniform_location(program_, "scale"), scale));
  GPGPU_GL(glActiveTexture(GL_TEXTURE0));
  GPGPU_GL(glBindTexture(GL_TEXTURE_2D, field.id()));
  pass_.draw();
}

std::vector<std::uint8_t> FieldView::render(const Texture2D& field, const FieldLayout& layout, float scale) const {
  const RenderTarget image = make_render_target(make_texture(TexelFormat::RGBA8, layout.grid.nx, layout.grid.ny));
  pass_.bind(image);
  draw(field, layout, scale, layout.grid.nx, layout.grid.ny);
  GPGPU_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, image.framebuffer.id()));
  return read_pixels_rgba8(layout.grid.nx, layout.grid.ny);
}

}  // namespace ch02
