/// @file opencl_kernels.hpp
/// @brief The OpenCL C sources of kernels/opencl/, embedded into every executable that links
/// gpgpu_opencl_kernels, so programs run from any directory.
#pragma once
#include <string_view>

#include "gpgpu/embedded_text.hpp"

namespace gpgpu::ocl {

/// The source of kernels/opencl/<file> (e.g. "04_jacobi_local.cl"), with its path for build
/// logs. Throws std::out_of_range for a file that is not listed in kernels/opencl/CMakeLists.txt.
const EmbeddedText& kernel_source(std::string_view file);

}  // namespace gpgpu::ocl
