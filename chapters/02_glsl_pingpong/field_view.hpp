/// @file field_view.hpp
/// @brief Turning a solution field into colours on the GPU (kernels/jacobi/gl/02_colormap.frag): into a
/// window's framebuffer (--window) or into an RGBA8 image for a PNG file (--png).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "field_layout.hpp"
#include "gpgpu/gl/fullscreen.hpp"
#include "gpgpu/gl/objects.hpp"

namespace ch02 {

/// Reads the RGBA8 colour buffer of the bound read framebuffer (bottom-up rows): the image of
/// render(), or a window's back buffer for a screenshot.
std::vector<std::uint8_t> read_pixels_rgba8(int width, int height);

/// The colour scale for `values`: their largest magnitude (1 when all are zero).
float colour_scale(std::span<const float> values);
float colour_scale(std::span<const double> values);

class FieldView {
 public:
  FieldView();
  /// Draws `field` (stored in `layout`) into the bound draw framebuffer, whose viewport is
  /// width x height pixels; |value| = scale gets the full colour.
  void draw(const gpgpu::gl::Texture2D& field, const FieldLayout& layout, float scale, int width, int height) const;
  /// Renders `field` at one pixel per unknown into an RGBA8 image (nx x ny, bottom row first).
  [[nodiscard]] std::vector<std::uint8_t> render(const gpgpu::gl::Texture2D& field, const FieldLayout& layout,
                                                 float scale) const;
  /// The full-screen pass, for drawing into a window.
  [[nodiscard]] const gpgpu::gl::FullscreenPass& pass() const { return pass_; }

 private:
  gpgpu::gl::Program program_;
  gpgpu::gl::FullscreenPass pass_;
};

}  // namespace ch02
