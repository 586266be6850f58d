// The table behind kernel_source(): one entry per file of kernels/opencl/CMakeLists.txt.
#include "opencl_kernels.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "opencl_kernel_includes.inc"

namespace gpgpu::ocl {

const EmbeddedText& kernel_source(std::string_view file) {
  static constexpr std::pair<std::string_view, const EmbeddedText*> kTable[] = {
#include "opencl_kernel_table.inc"
  };
  for (const auto& [name, text] : kTable)
    if (name == file) return *text;
  throw std::out_of_range("no embedded OpenCL kernel '" + std::string(file) + "' (see kernels/opencl/CMakeLists.txt)");
}

}  // namespace gpgpu::ocl
