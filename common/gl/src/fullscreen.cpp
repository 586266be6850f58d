#include "gpgpu/gl/fullscreen.hpp"

#include "gpgpu/gl/check.hpp"

namespace gpgpu::gl {

void FullscreenPass::bind(GLuint framebuffer, int width, int height) const {
  GPGPU_GL(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer));
  GPGPU_GL(glViewport(0, 0, width, height));
  GPGPU_GL(glBindVertexArray(vertex_array_.id()));
}

void FullscreenPass::draw() const { GPGPU_GL(glDrawArrays(GL_TRIANGLES, 0, 3)); }

}  // namespace gpgpu::gl
