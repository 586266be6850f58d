// --window with GLFW: the window's own OpenGL context (GLX on X11) runs the chapter.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <GL/glew.h>  // before GLFW's header, which would otherwise include the system <GL/gl.h>
#include <GLFW/glfw3.h>

#include "field_view.hpp"
#include "field_window.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"
#include "gpgpu/gl/texture.hpp"

namespace ch02 {
namespace {

std::string g_glfw_error;  // the last message of GLFW's error callback (GLFW reports no other way)

void remember_error(int, const char* message) { g_glfw_error = message; }

void on_key(GLFWwindow* window, int key, int, int action, int) {
  if (action == GLFW_PRESS && (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_Q)) glfwSetWindowShouldClose(window, GLFW_TRUE);
}

}  // namespace

struct FieldWindow::Impl {
  WindowOptions options;
  GLFWwindow* window = nullptr;
  gpgpu::gl::ContextInfo info;
  std::unique_ptr<FieldView> view;
  std::vector<std::uint8_t> frame;
  int frame_width = 0, frame_height = 0;
  std::string title = "ch02_glsl_pingpong";

  ~Impl() {
    view.reset();  // its GL objects need the context
    if (window != nullptr) glfwDestroyWindow(window);
    glfwTerminate();
  }
};

FieldWindow::FieldWindow(WindowOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  glfwSetErrorCallback(remember_error);
  if (glfwInit() != GLFW_TRUE)
    throw gpgpu::UsageError("--window needs a display (" + g_glfw_error + "); without --window the run is headless");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // shown by fit(), at the grid's aspect ratio
  impl_->window = glfwCreateWindow(768, 768, impl_->title.c_str(), nullptr, nullptr);
  if (impl_->window == nullptr)
    throw gpgpu::UsageError("--window: no OpenGL 3.3 core window on this display (" + g_glfw_error + ")");
  glfwMakeContextCurrent(impl_->window);
  glfwSwapInterval(1);  // at most one frame per refresh: the convergence stays watchable on a fast GPU
  glfwSetKeyCallback(impl_->window, on_key);
  const bool egl = glfwGetWindowAttrib(impl_->window, GLFW_CONTEXT_CREATION_API) == GLFW_EGL_CONTEXT_API;
  gpgpu::gl::load_gl_functions(egl ? gpgpu::gl::ContextApi::Egl : gpgpu::gl::ContextApi::Glx);
  int major = 0, minor = 0, revision = 0;
  glfwGetVersion(&major, &minor, &revision);
  impl_->info = gpgpu::gl::query_context_info("GLFW " + std::to_string(major) + "." + std::to_string(minor) + "." +
                                                  std::to_string(revision) + " window (" + (egl ? "EGL" : "GLX") + ")",
                                              "");
  impl_->view = std::make_unique<FieldView>();
}

FieldWindow::~FieldWindow() = default;

const gpgpu::gl::ContextInfo& FieldWindow::info() const { return impl_->info; }
const WindowOptions& FieldWindow::options() const { return impl_->options; }

void FieldWindow::fit(gpgpu::jacobi::Grid grid, const std::string& title) {
  const double fit = 768.0 / std::max(grid.nx, grid.ny);
  const int width = std::max(64, static_cast<int>(std::lround(grid.nx * fit)));
  const int height = std::max(64, static_cast<int>(std::lround(grid.ny * fit)));
  impl_->title = title;
  glfwSetWindowSize(impl_->window, width, height);
  glfwSetWindowTitle(impl_->window, title.c_str());
  glfwShowWindow(impl_->window);
  glfwPollEvents();
}

void FieldWindow::show(const gpgpu::gl::Texture2D& field, const FieldLayout& layout, float scale,
                       const std::string& status, bool capture) {
  if (glfwWindowShouldClose(impl_->window)) return;  // closed early: the run goes on without drawing
  int width = 0, height = 0;
  glfwGetFramebufferSize(impl_->window, &width, &height);
  impl_->view->pass().bind_default(width, height);
  impl_->view->draw(field, layout, scale, width, height);
  if (capture) {
    GPGPU_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
    GPGPU_GL(glReadBuffer(GL_BACK));
    impl_->frame = read_pixels_rgba8(width, height);
    impl_->frame_width = width;
    impl_->frame_height = height;
  }
  glfwSetWindowTitle(impl_->window, (impl_->title + " - " + status).c_str());
  glfwSwapBuffers(impl_->window);
  glfwPollEvents();
}

const std::vector<std::uint8_t>& FieldWindow::screenshot(int& width, int& height) const {
  if (impl_->frame.empty()) throw std::logic_error("no frame was captured");
  width = impl_->frame_width;
  height = impl_->frame_height;
  return impl_->frame;
}

void FieldWindow::wait_until_closed(const gpgpu::gl::Texture2D& field, const FieldLayout& layout, float scale,
                                    const std::string& status) {
  // Redraw after every event: a window system need not keep the pixels of an exposed or resized window.
  while (!glfwWindowShouldClose(impl_->window)) {
    show(field, layout, scale, status);
    glfwWaitEvents();
  }
}

}  // namespace ch02
