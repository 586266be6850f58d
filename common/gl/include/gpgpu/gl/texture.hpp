/// @file texture.hpp
/// @brief Float textures as GPGPU arrays: allocation with data, read-back, framebuffers to render
/// into them, and the NaN poison that makes every texel a shader forgot to write visible.
///
/// Every texture here samples with GL_NEAREST and has a single level: the shaders read it with
/// texelFetch (integer texel coordinates, no filtering, no mipmaps), which is how a fragment
/// shader reads an array. (A texture whose minification filter wants mipmaps it does not have is
/// "incomplete", and texelFetch from it returns zeros.)
#pragma once
#include <span>
#include <vector>

#include "gpgpu/gl/objects.hpp"

namespace gpgpu::gl {

/// The texel formats the project uses.
enum class TexelFormat {
  R32F,     ///< one float per texel (the paper's luminance textures)
  RGBA32F,  ///< four floats per texel
  RGBA8,    ///< four bytes per texel (colour images)
};

/// Floats (or bytes for RGBA8) per texel.
[[nodiscard]] int channels(TexelFormat format);

/// A 2D texture with its size and format.
struct Texture2D {
  Texture texture;
  int width = 0;
  int height = 0;
  TexelFormat format = TexelFormat::R32F;

  [[nodiscard]] GLuint id() const { return texture.id(); }
  /// width * height * channels: the number of floats (or bytes) of its contents.
  [[nodiscard]] std::size_t values() const;
};

/// Allocates a width x height texture; `data` (values() floats, rows bottom-up) fills it, or it is
/// left undefined when `data` is empty. Float formats only take floats.
Texture2D make_texture(TexelFormat format, int width, int height, std::span<const float> data = {});

/// Replaces the whole contents (values() floats).
void upload(const Texture2D& texture, std::span<const float> data);

/// Reads the whole texture back into host memory (values() floats, rows bottom-up).
std::vector<float> read_back(const Texture2D& texture);

/// A texture and the framebuffer object that renders into it (colour attachment 0).
struct RenderTarget {
  Texture2D texture;
  Framebuffer framebuffer;
};

/// A framebuffer that renders into every texture of `colour` at once: colour attachment k and
/// draw buffer k are colour[k] (fragment output `layout(location = k)`). Throws ApiError with the
/// framebuffer status if it is incomplete (a format that cannot be rendered to); the caller keeps
/// the number of attachments within GL_MAX_DRAW_BUFFERS.
Framebuffer make_framebuffer(std::span<const Texture2D* const> colour);

/// Wraps `texture` in a complete framebuffer (make_framebuffer with one attachment).
RenderTarget make_render_target(Texture2D texture);

/// Fills every texel of the first `draw_buffers` colour buffers of `framebuffer` with quiet NaNs,
/// so a texel no shader invocation writes stays NaN and fails any later comparison.
void poison(const Framebuffer& framebuffer, int draw_buffers = 1);
inline void poison(const RenderTarget& target) { poison(target.framebuffer); }

}  // namespace gpgpu::gl
