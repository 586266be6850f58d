#include "gpgpu/gl/check.hpp"

#define EGL_NO_X11  // keep Xlib's macros (None, Bool, Status) out of the project's code
#include <EGL/egl.h>

#include <cstdio>

#include "gpgpu/errors.hpp"

namespace gpgpu::gl {
namespace {

std::string hex_code(const char* api, unsigned code) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s error 0x%04X", api, code);
  return buf;
}

}  // namespace

std::string gl_error_name(GLenum error) {
  switch (error) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    default: return hex_code("GL", error);
  }
}

std::string egl_error_name(int error) {
  switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return hex_code("EGL", static_cast<unsigned>(error));
  }
}

void check_gl_errors(const char* call, const char* file, int line) {
  GLenum error = glGetError();
  if (error == GL_NO_ERROR) return;
  std::string names;
  // A lost context can report errors forever; a handful of distinct flags is all GL has.
  for (int i = 0; error != GL_NO_ERROR && i < 8; ++i, error = glGetError())
    names += (names.empty() ? "" : ", ") + gl_error_name(error);
  throw ApiError(describe_failed_call(call, file, line, names));
}

void check_egl_error(const char* call, const char* file, int line) {
  const EGLint error = eglGetError();
  if (error != EGL_SUCCESS) throw ApiError(describe_failed_call(call, file, line, egl_error_name(error)));
}

}  // namespace gpgpu::gl
