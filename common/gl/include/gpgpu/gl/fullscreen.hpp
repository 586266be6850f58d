/// @file fullscreen.hpp
/// @brief Running a fragment shader once per pixel of a render target: the GPGPU "kernel launch"
/// of OpenGL. The bound program's vertex shader must be common/gl/shaders/fullscreen.vert (see
/// link_fullscreen_program()), which makes one triangle cover the viewport from gl_VertexID alone.
#pragma once
#include "gpgpu/gl/objects.hpp"
#include "gpgpu/gl/texture.hpp"

namespace gpgpu::gl {

class FullscreenPass {
 public:
  FullscreenPass() = default;
  /// Binds `framebuffer` for drawing, sets the viewport to width x height pixels and binds the
  /// (empty) vertex array a core profile requires for any draw. Call once before draw() calls, and
  /// again after other code changed that state.
  void bind(const Framebuffer& framebuffer, int width, int height) const { bind(framebuffer.id(), width, height); }
  /// Same for the target's framebuffer, at the size of its texture.
  void bind(const RenderTarget& target) const { bind(target.framebuffer, target.texture.width, target.texture.height); }
  /// Same for the default framebuffer (a window) of width x height pixels.
  void bind_default(int width, int height) const { bind(0, width, height); }
  /// Draws the triangle: one fragment shader invocation per pixel of the viewport.
  void draw() const;

 private:
  void bind(GLuint framebuffer, int width, int height) const;
  VertexArray vertex_array_;  // holds no attributes: the vertex shader needs only gl_VertexID
};

}  // namespace gpgpu::gl
