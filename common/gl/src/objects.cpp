#include "gpgpu/gl/objects.hpp"

#include "gpgpu/gl/check.hpp"

namespace gpgpu::gl {

GLuint create_object(ObjectKind kind) {
  GLuint id = 0;
  switch (kind) {
    case ObjectKind::Texture: GPGPU_GL(glGenTextures(1, &id)); break;
    case ObjectKind::Framebuffer: GPGPU_GL(glGenFramebuffers(1, &id)); break;
    case ObjectKind::Query: GPGPU_GL(glGenQueries(1, &id)); break;
    case ObjectKind::VertexArray: GPGPU_GL(glGenVertexArrays(1, &id)); break;
    case ObjectKind::Program: id = GPGPU_GL(glCreateProgram()); break;
  }
  return id;
}

void destroy_object(ObjectKind kind, GLuint id) noexcept {
  switch (kind) {
    case ObjectKind::Texture: glDeleteTextures(1, &id); break;
    case ObjectKind::Framebuffer: glDeleteFramebuffers(1, &id); break;
    case ObjectKind::Query: glDeleteQueries(1, &id); break;
    case ObjectKind::VertexArray: glDeleteVertexArrays(1, &id); break;
    case ObjectKind::Program: glDeleteProgram(id); break;
  }
}

Shader::Shader(GLenum stage) : id_(GPGPU_GL(glCreateShader(stage))) {}
Shader::~Shader() {
  if (id_ != 0) glDeleteShader(id_);
}
Shader& Shader::operator=(Shader&& other) noexcept {
  if (this != &other) {
    if (id_ != 0) glDeleteShader(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

}  // namespace gpgpu::gl
