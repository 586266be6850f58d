/// @file opencl_kernels.hpp
/// @brief The OpenCL C sources of kernels/matrix/opencl/, embedded into every executable that links
/// gpgpu::matrix_opencl_kernels, so programs run from any directory.
#pragma once
#include <string_view>

#include "gpgpu/embedded_text.hpp"

namespace gpgpu::matrix {

/// The embedded source of `path` ("kernels/matrix/opencl/09_08_transpose_tile.cl"), with that path for
/// build logs. Throws std::out_of_range for a file kernels/matrix/opencl/CMakeLists.txt does not embed.
const EmbeddedText& opencl_kernel(std::string_view path);

}  // namespace gpgpu::matrix
