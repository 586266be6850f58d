#include "ports.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/opencl_kernels.hpp"
#include "opencl_variants.hpp"

namespace ch08 {
namespace {

using gpgpu::jacobi::Grid;

bool float_texels_supported(const cl::Context& context) {
  std::vector<cl::ImageFormat> formats;
  GPGPU_CL(context.getSupportedImageFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE1D_BUFFER, &formats));
  return std::any_of(formats.begin(), formats.end(), [](const cl::ImageFormat& f) {
    return f.image_channel_order == kFloatTexels.image_channel_order &&
           f.image_channel_data_type == kFloatTexels.image_channel_data_type;
  });
}

}  // namespace

//! [division]
bool correctly_rounded_division(const cl::Device& device) {
  const cl_device_fp_config config = GPGPU_CL(device.getInfo<CL_DEVICE_SINGLE_FP_CONFIG>());
  return (config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
}
//! [division]

//! [build_options]
std::string build_options(const cl::Device& device, Division division) {
  if (division == Division::correctly_rounded && correctly_rounded_division(device))
    return "-cl-fp32-correctly-rounded-divide-sqrt";
  return {};
}
//! [build_options]

std::string division_summary(const cl::Device& device, Division division) {
  if (division == Division::opencl_default)
    return "OpenCL C's default (x / y within 2.5 ulp; --cl-division default)";
  if (correctly_rounded_division(device))
    return "correctly rounded, as CUDA's (built with -cl-fp32-correctly-rounded-divide-sqrt)";
  return "OpenCL C's default (x / y within 2.5 ulp): the device offers no correctly rounded division "
         "(CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)";
}

const cl::Program& variant_program(gpgpu::ocl::Runtime& runtime, const Port& v, Division division) {
  return runtime.program(gpgpu::jacobi::opencl_kernel(v.kernel_file), build_options(runtime.device(), division));
}

const Port& port(std::string_view name) {
  for (const Port& v : kPorts)
    if (v.name == name) return v;
  throw std::out_of_range("no chapter 08 variant '" + std::string(name) + "'");
}

DeviceLayout device_layout(const Port& v, const Grid& grid, const gpgpu::ocl::DeviceInfo& device) {
  DeviceLayout l;
  l.kind = v.layout;
  if (v.layout == Layout::Linear) {
    l.ghost = gpgpu::jacobi::aligned_offset(grid, v.ghost_multiple);  // multiple 1: nx+1, the simple offset
    l.x_length = gpgpu::jacobi::ghost_padded_length(grid, l.ghost, 32);
    l.coef_length = grid.nodes();
  } else {
    const std::int64_t align = std::max<std::int64_t>(1, device.base_address_align_bits / 8 / 4);
    l.pitch = (grid.nx + align - 1) / align * align;
    l.origin = gpgpu::jacobi::kPitchedGhostRows * l.pitch;
    l.x_length = (grid.ny + 2 * gpgpu::jacobi::kPitchedGhostRows) * l.pitch;
    l.coef_length = l.x_length;
  }
  return l;
}

DeviceBytes device_bytes(const Port& v, const Grid& grid, const gpgpu::ocl::DeviceInfo& device) {
  const DeviceLayout l = device_layout(v, grid, device);
  const double coef = 4.0 * static_cast<double>(l.coef_length), x = 4.0 * static_cast<double>(l.x_length);
  return {10 * coef + 2 * x, std::max(coef, x)};
}

std::optional<std::string> device_limitation(const Port& v, const Grid& grid,
                                             const gpgpu::ocl::DeviceInfo& device) {
  if (v.x_access != XAccess::Image) return std::nullopt;
  if (!device.image_support) return "the device has no image support";
  const auto texels = static_cast<std::size_t>(device_layout(v, grid, device).x_length);
  if (texels > device.image_max_buffer_size)
    return "x needs a 1D image of " + std::to_string(texels) + " texels; the device allows " +
           std::to_string(device.image_max_buffer_size) + " (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE)";
  return std::nullopt;
}

std::optional<std::string> device_limitation(const Port& v, const Grid& grid, const gpgpu::ocl::Runtime& runtime) {
  if (auto reason = device_limitation(v, grid, runtime.info())) return reason;
  if (v.x_access == XAccess::Image && !float_texels_supported(runtime.context()))
    return "the device has no CL_R / CL_FLOAT format for 1D buffer images";
  return std::nullopt;
}

}  // namespace ch08
