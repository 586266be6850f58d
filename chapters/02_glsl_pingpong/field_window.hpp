/// @file field_window.hpp
/// @brief --window: a GLFW window whose OpenGL context runs the whole chapter and shows the
/// solution field converging, redrawn every few iterations; and the chapter's GL driver, which
/// opens that window instead of the headless context when --window is given.
///
/// Without a display (no X server or Wayland compositor), or in a build without GLFW, the
/// constructor throws UsageError: the run stops at once with a one-line message (exit code 2).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "field_layout.hpp"
#include "gpgpu/backend.hpp"
#include "gpgpu/gl/context.hpp"

namespace ch02 {

/// The window options (group "Window").
struct WindowOptions {
  bool show = false;       ///< --window
  int draw_every = 10;     ///< --draw-every K
  std::string screenshot;  ///< --screenshot FILE
};

class FieldWindow final : public gpgpu::gl::Context {
 public:
  /// Opens a (hidden) window with a current core-profile OpenGL 3.3+ context whose functions are
  /// loaded; fit() sizes and shows it once the grid is known.
  explicit FieldWindow(WindowOptions options);
  ~FieldWindow() override;

  [[nodiscard]] const gpgpu::gl::ContextInfo& info() const override;
  [[nodiscard]] const WindowOptions& options() const;

  /// Sizes the window for `grid` (longer side 768 pixels), titles it and shows it.
  void fit(gpgpu::jacobi::Grid grid, const std::string& title);
  /// Draws `field` colour-mapped (|value| = scale is full colour), puts `status` in the title
  /// bar and shows the frame. With `capture`, keeps the frame's pixels for screenshot().
  void show(const gpgpu::gl::Texture2D& field, const FieldLayout& layout, float scale, const std::string& status,
            bool capture = false);
  /// The last captured frame, RGBA8 bottom row first, and its size.
  [[nodiscard]] const std::vector<std::uint8_t>& screenshot(int& width, int& height) const;
  /// Keeps showing `field` until the user closes the window (Esc, Q, or the close button).
  void wait_until_closed(const gpgpu::gl::Texture2D& field, const FieldLayout& layout, float scale,
                         const std::string& status);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Chapter 02's GL driver: gpgpu::gl::Opener (--egl) plus the group "Window" (--window,
/// --draw-every, --screenshot); with --window its session runs in a FieldWindow's context.
std::unique_ptr<gpgpu::BackendOpener> opener();

/// The window a GL session runs in, or nullptr for a headless one.
FieldWindow* window_of(gpgpu::Session& gl_session);

}  // namespace ch02
