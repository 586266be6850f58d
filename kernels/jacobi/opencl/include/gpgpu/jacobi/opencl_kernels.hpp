/// @file opencl_kernels.hpp
/// @brief The OpenCL C sources of kernels/jacobi/opencl/, embedded into every executable that
/// links gpgpu::jacobi_opencl_kernels, so programs run from any directory.
#pragma once
#include <string_view>

#include "gpgpu/embedded_text.hpp"

namespace gpgpu::jacobi {

/// The embedded source of `path` ("kernels/jacobi/opencl/08_02_local.cl"), with that path for build
/// logs. Throws std::out_of_range for a file kernels/jacobi/opencl/CMakeLists.txt does not embed.
const EmbeddedText& opencl_kernel(std::string_view path);

}  // namespace gpgpu::jacobi
