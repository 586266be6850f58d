#include "gpgpu/gl/texture.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"

namespace gpgpu::gl {
namespace {

struct GlFormat {
  GLint internal;
  GLenum format;
  GLenum type;
};

GlFormat gl_format(TexelFormat f) {
  switch (f) {
    case TexelFormat::R32F: return {GL_R32F, GL_RED, GL_FLOAT};
    case TexelFormat::RGBA32F: return {GL_RGBA32F, GL_RGBA, GL_FLOAT};
    case TexelFormat::RGBA8: return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE};
  }
  throw std::logic_error("unknown texel format");
}

std::string framebuffer_status_name(GLenum status) {
  switch (status) {
    case GL_FRAMEBUFFER_UNDEFINED: return "GL_FRAMEBUFFER_UNDEFINED";
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: return "GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER";
    case GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER: return "GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER";
    case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE";
    default: return "framebuffer status " + std::to_string(status);
  }
}

void check_size(const Texture2D& t, std::size_t got) {
  if (got != t.values())
    throw std::invalid_argument("texture data has " + std::to_string(got) + " values, expected " +
                                std::to_string(t.values()));
}

}  // namespace

int channels(TexelFormat format) { return format == TexelFormat::R32F ? 1 : 4; }

std::size_t Texture2D::values() const {
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * static_cast<std::size_t>(channels(format));
}

Texture2D make_texture(TexelFormat format, int width, int height, std::span<const float> data) {
  if (format == TexelFormat::RGBA8 && !data.empty()) throw std::invalid_argument("RGBA8 textures take no float data");
  Texture2D t{Texture{}, width, height, format};
  if (!data.empty()) check_size(t, data.size());
  const GlFormat f = gl_format(format);
  GPGPU_GL(glBindTexture(GL_TEXTURE_2D, t.id()));
  GPGPU_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
  GPGPU_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
  GPGPU_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
  GPGPU_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
  GPGPU_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0));
  GPGPU_GL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
  GPGPU_GL(glTexImage2D(GL_TEXTURE_2D, 0, f.internal, width, height, 0, f.format, f.type,
                        data.empty() ? nullptr : data.data()));
  return t;
}

void upload(const Texture2D& t, std::span<const float> data) {
  check_size(t, data.size());
  const GlFormat f = gl_format(t.format);
  GPGPU_GL(glBindTexture(GL_TEXTURE_2D, t.id()));
  GPGPU_GL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
  GPGPU_GL(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, t.width, t.height, f.format, f.type, data.data()));
}

std::vector<float> read_back(const Texture2D& t) {
  if (t.format == TexelFormat::RGBA8) throw std::invalid_argument("read_back() reads float textures");
  std::vector<float> out(t.values());
  const GlFormat f = gl_format(t.format);
  GPGPU_GL(glBindTexture(GL_TEXTURE_2D, t.id()));
  GPGPU_GL(glPixelStorei(GL_PACK_ALIGNMENT, 4));
  GPGPU_GL(glGetTexImage(GL_TEXTURE_2D, 0, f.format, f.type, out.data()));
  return out;
}

Framebuffer make_framebuffer(std::span<const Texture2D* const> colour) {
  Framebuffer framebuffer;
  std::vector<GLenum> draw_buffers;
  GPGPU_GL(glBindFramebuffer(GL_FRAMEBUFFER, framebuffer.id()));
  for (std::size_t k = 0; k < colour.size(); ++k) {
    draw_buffers.push_back(GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(k));
    GPGPU_GL(glFramebufferTexture2D(GL_FRAMEBUFFER, draw_buffers.back(), GL_TEXTURE_2D, colour[k]->id(), 0));
  }
  GPGPU_GL(glDrawBuffers(static_cast<GLsizei>(draw_buffers.size()), draw_buffers.data()));
  const GLenum status = GPGPU_GL(glCheckFramebufferStatus(GL_FRAMEBUFFER));
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw ApiError(describe_failed_call("glCheckFramebufferStatus", __FILE__, __LINE__, framebuffer_status_name(status)));
  return framebuffer;
}

RenderTarget make_render_target(Texture2D texture) {
  const Texture2D* colour[] = {&texture};
  Framebuffer framebuffer = make_framebuffer(colour);
  return {std::move(texture), std::move(framebuffer)};  // the GL names stay what they are
}

void poison(const Framebuffer& framebuffer, int draw_buffers) {
  const GLfloat nan[4] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};
  GPGPU_GL(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer.id()));
  for (int k = 0; k < draw_buffers; ++k) GPGPU_GL(glClearBufferfv(GL_COLOR, k, nan));
}

}  // namespace gpgpu::gl
