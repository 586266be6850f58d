// The table behind opencl_kernel(): one entry per file that CMakeLists.txt embeds.
#include "gpgpu/matrix/opencl_kernels.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "embedded/_09_02_add_colmajor_cl.hpp"
#include "embedded/_09_01_add_rowmajor_cl.hpp"
#include "embedded/_09_05_add_vec4_cl.hpp"
#include "embedded/_09_06_transpose_naive_cl.hpp"
#include "embedded/_09_08_transpose_tile_cl.hpp"
#include "embedded/_09_10_transpose_tile_multi_cl.hpp"
#include "embedded/_09_11_transpose_tile_vec4_cl.hpp"
#include "embedded/_09_12_transpose_tile_panels_cl.hpp"
#include "embedded/_09_13_transpose_persistent_cl.hpp"
#include "embedded/_09_14_transpose_strip_cl.hpp"
#include "embedded/_09_09_transpose_tile_padded_cl.hpp"

namespace gpgpu::matrix {

const EmbeddedText& opencl_kernel(std::string_view path) {
  static constexpr std::array kTable{&embedded::_09_01_add_rowmajor_cl,     &embedded::_09_02_add_colmajor_cl,
                                     &embedded::_09_05_add_vec4_cl,         &embedded::_09_06_transpose_naive_cl,
                                     &embedded::_09_08_transpose_tile_cl,   &embedded::_09_09_transpose_tile_padded_cl,
                                     &embedded::_09_10_transpose_tile_multi_cl,  &embedded::_09_11_transpose_tile_vec4_cl,
                                     &embedded::_09_12_transpose_tile_panels_cl, &embedded::_09_13_transpose_persistent_cl,
                                     &embedded::_09_14_transpose_strip_cl};
  const auto it = std::find_if(kTable.begin(), kTable.end(), [&](const EmbeddedText* t) { return t->path == path; });
  if (it == kTable.end())
    throw std::out_of_range("no embedded OpenCL kernel '" + std::string(path) + "' (see kernels/matrix/opencl/CMakeLists.txt)");
  return **it;
}

}  // namespace gpgpu::matrix
