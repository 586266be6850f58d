// --window in a build without GLFW: refused with one line (exit code 2).
#include "field_window.hpp"

#include <stdexcept>

#include "gpgpu/errors.hpp"

namespace ch02 {

struct FieldWindow::Impl {};

FieldWindow::FieldWindow(WindowOptions) {
  throw gpgpu::UsageError("--window: this build has no GLFW (install libglfw3-dev and reconfigure)");
}
FieldWindow::~FieldWindow() = default;
const gpgpu::gl::ContextInfo& FieldWindow::info() const { throw std::logic_error("no window"); }
const WindowOptions& FieldWindow::options() const { throw std::logic_error("no window"); }
void FieldWindow::fit(gpgpu::jacobi::Grid, const std::string&) {}
void FieldWindow::show(const gpgpu::gl::Texture2D&, const FieldLayout&, float, const std::string&, bool) {}
const std::vector<std::uint8_t>& FieldWindow::screenshot(int&, int&) const { throw std::logic_error("no window"); }
void FieldWindow::wait_until_closed(const gpgpu::gl::Texture2D&, const FieldLayout&, float, const std::string&) {}

}  // namespace ch02
