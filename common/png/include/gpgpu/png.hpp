/// @file png.hpp
/// @brief Writing an RGBA8 image as a PNG file (libpng), for the chapters that draw a field:
/// chapter 02 (--png, --screenshot) and chapter 11 (--png). Without libpng the build still links,
/// png_supported() is false, and write_png() refuses with a one-line UsageError.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace gpgpu {

/// True when this build has libpng (otherwise a chapter refuses --png at start-up).
bool png_supported();

/// Writes width x height RGBA8 pixels, given bottom row first (as OpenGL reads them, and as a field
/// with y pointing up is stored), as a PNG with the top row first. Throws UsageError if the file
/// cannot be written.
void write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba_bottom_up);

}  // namespace gpgpu
