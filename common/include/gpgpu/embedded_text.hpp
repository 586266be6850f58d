/// @file embedded_text.hpp
/// @brief A text file (shader, OpenCL C kernel) compiled into the executable by gpgpu_embed_text().
#pragma once
#include <string_view>

namespace gpgpu {

/// The contents of a source file embedded at build time, with its path for error messages.
struct EmbeddedText {
  std::string_view path;  ///< path relative to the project root, e.g. "kernels/jacobi/gl/02_01_luminance.frag"
  std::string_view text;  ///< the file's contents
};

}  // namespace gpgpu
