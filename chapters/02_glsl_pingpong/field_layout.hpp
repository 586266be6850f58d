/// @file field_layout.hpp
/// @brief How chapter 02 stores a grid vector (the iterate, the right-hand side, one diagonal)
/// in a texture: one unknown per GL_R32F texel (the paper's luminance textures), or four per
/// GL_RGBA32F texel (the paper's RGBA textures).
///
/// Four per texel: texel (i, j) holds unknowns 4i .. 4i+3 of row j in its channels x, y, z, w, so
/// a texture row is ceil(nx / 4) texels. When nx is not a multiple of 4 the last texel of each row
/// has 1 to 3 padding lanes; pack() fills them with a value the caller chooses (see
/// kernels/jacobi/gl/02_rgba.glsl for why the centre diagonal is padded with 1 and all else with 0).
#pragma once
#include <span>
#include <vector>

#include "gpgpu/gl/texture.hpp"
#include "gpgpu/jacobi/grid.hpp"

namespace ch02 {

struct FieldLayout {
  gpgpu::jacobi::Grid grid;
  int unknowns_per_texel = 1;  ///< 1 or 4

  /// Texels per texture row: nx, or ceil(nx / 4).
  [[nodiscard]] int texture_width() const { return (grid.nx + unknowns_per_texel - 1) / unknowns_per_texel; }
  [[nodiscard]] int texture_height() const { return grid.ny; }
  [[nodiscard]] gpgpu::gl::TexelFormat format() const {
    return unknowns_per_texel == 1 ? gpgpu::gl::TexelFormat::R32F : gpgpu::gl::TexelFormat::RGBA32F;
  }
  /// Floats in one texture of this layout (padding lanes included).
  [[nodiscard]] std::size_t texture_values() const;

  /// nx*ny values (row-major, row 0 first) -> texture contents, padding lanes set to `pad`.
  [[nodiscard]] std::vector<float> pack(std::span<const float> values, float pad = 0.0f) const;
  /// Texture contents -> the nx*ny values (padding lanes dropped).
  [[nodiscard]] std::vector<float> unpack(std::span<const float> texels) const;
  /// A texture of this layout holding `values`.
  [[nodiscard]] gpgpu::gl::Texture2D make_texture(std::span<const float> values, float pad = 0.0f) const;
};

/// The layouts of the two variants.
inline FieldLayout luminance_layout(gpgpu::jacobi::Grid g) { return {g, 1}; }
inline FieldLayout rgba_layout(gpgpu::jacobi::Grid g) { return {g, 4}; }

}  // namespace ch02
