/// @file field_window.hpp
/// @brief --window: a GLFW window whose OpenGL context runs the whole chapter and shows the
/// solution field converging, redrawn every few iterations.
///
/// Without a display (no X server or Wayland compositor), or in a build without GLFW, the
/// constructor throws UsageError: the run stops at once with a one-line message (exit code 2).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "field_layout.hpp"
#include "gpgpu/gl/context.hpp"

namespace ch02 {

class FieldWindow {
 public:
  /// Opens a window sized for `grid` (longer side 768 pixels) with a current core-profile
  /// OpenGL 3.3+ context whose functions are loaded.
  FieldWindow(gpgpu::Grid grid, const std::string& title);
  ~FieldWindow();
  FieldWindow(const FieldWindow&) = delete;
  FieldWindow& operator=(const FieldWindow&) = delete;

  [[nodiscard]] const gpgpu::gl::ContextInfo& info() const;

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

}  // namespace ch02
