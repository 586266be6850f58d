/// @file check.hpp
/// @brief Checked OpenGL and EGL calls: one line each, naming the call, file, line and error.
///
/// @code
///   GPGPU_GL(glBindTexture(GL_TEXTURE_2D, id));            // throws gpgpu::ApiError on a GL error
///   const GLuint s = GPGPU_GL(glCreateShader(GL_FRAGMENT_SHADER));   // value-returning calls too
///   EGLDisplay d = GPGPU_EGL(eglGetPlatformDisplay(...));  // checks eglGetError()
/// @endcode
///
/// OpenGL reports errors through sticky flags that glGetError() returns (and clears) one at a
/// time, so after each call every flag is drained and all of them are named. EGL keeps one error
/// per thread that every EGL call sets, EGL_SUCCESS included, so eglGetError() right after a call
/// is that call's status.
#pragma once
#include <string>
#include <type_traits>
#include <utility>

#include "gpgpu/gl/gl.hpp"

namespace gpgpu::gl {

/// "GL_INVALID_OPERATION", "GL_OUT_OF_MEMORY", ... ("GL error 0x1234" for unknown codes).
[[nodiscard]] std::string gl_error_name(GLenum error);

/// "EGL_BAD_DISPLAY", "EGL_NOT_INITIALIZED", ... ("EGL error 0x3000" for unknown codes).
[[nodiscard]] std::string egl_error_name(int error);

/// Drains glGetError(); throws gpgpu::ApiError naming `call`, `file`, `line` and every error
/// flag that was set. Does nothing when no flag was set.
void check_gl_errors(const char* call, const char* file, int line);

/// Reads eglGetError(); throws gpgpu::ApiError naming `call` unless it is EGL_SUCCESS.
void check_egl_error(const char* call, const char* file, int line);

/// Runs `call` and checks with `check`; returns the call's value (if it has one).
template <typename Call, typename Check>
auto checked_call(Call&& call, Check check, const char* text, const char* file, int line) {
  if constexpr (std::is_void_v<std::invoke_result_t<Call>>) {
    std::forward<Call>(call)();
    check(text, file, line);
  } else {
    auto value = std::forward<Call>(call)();
    check(text, file, line);
    return value;
  }
}

}  // namespace gpgpu::gl

/// Calls an OpenGL function and throws gpgpu::ApiError if it raised a GL error.
#define GPGPU_GL(call) ::gpgpu::gl::checked_call([&] { return call; }, ::gpgpu::gl::check_gl_errors, #call, __FILE__, __LINE__)

/// Calls an EGL function and throws gpgpu::ApiError unless eglGetError() is EGL_SUCCESS.
#define GPGPU_EGL(call) ::gpgpu::gl::checked_call([&] { return call; }, ::gpgpu::gl::check_egl_error, #call, __FILE__, __LINE__)
