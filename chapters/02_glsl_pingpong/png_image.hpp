/// @file png_image.hpp
/// @brief Writing an RGBA8 image as a PNG file (libpng), for --png and --screenshot.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace ch02 {

/// True when this build has libpng (otherwise --png and --screenshot are refused at start-up).
bool png_supported();

/// Writes width x height RGBA8 pixels, given bottom row first (as OpenGL reads them), as a PNG
/// with the top row first. Throws UsageError if the file cannot be written.
void write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba_bottom_up);

}  // namespace ch02
