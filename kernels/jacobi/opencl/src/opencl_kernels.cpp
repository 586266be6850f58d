// The table behind opencl_kernel(): one entry per file that CMakeLists.txt embeds.
#include "gpgpu/jacobi/opencl_kernels.hpp"

#include <stdexcept>
#include <string>

#include "embedded/_08_03_image_cl.hpp"
#include "embedded/_08_02_local_cl.hpp"
#include "embedded/_08_01_simple_cl.hpp"

namespace gpgpu::jacobi {

const EmbeddedText& opencl_kernel(std::string_view path) {
  static constexpr const EmbeddedText* kTable[] = {&embedded::_08_01_simple_cl, &embedded::_08_02_local_cl,
                                                   &embedded::_08_03_image_cl};
  for (const EmbeddedText* text : kTable)
    if (text->path == path) return *text;
  throw std::out_of_range("no embedded OpenCL kernel '" + std::string(path) +
                          "' (see kernels/jacobi/opencl/CMakeLists.txt)");
}

}  // namespace gpgpu::jacobi
