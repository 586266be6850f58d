#include "ported_variants.hpp"

#include <algorithm>
#include <stdexcept>

#include "gpgpu/layouts.hpp"

namespace ch08 {

const Variant& variant(std::string_view name) {
  for (const Variant& v : kVariants)
    if (v.name == name) return v;
  throw std::out_of_range("no chapter 08 variant '" + std::string(name) + "'");
}

std::array<std::string, kVariants.size()> variant_names() {
  std::array<std::string, kVariants.size()> names;
  for (std::size_t i = 0; i < kVariants.size(); ++i) names[i] = kVariants[i].name;
  return names;
}

DeviceLayout device_layout(const Variant& v, const gpgpu::Grid& grid, const gpgpu::ocl::DeviceInfo& device) {
  DeviceLayout l;
  l.kind = v.layout;
  if (v.layout == Layout::Linear) {
    l.ghost = gpgpu::aligned_offset(grid, v.ghost_multiple);  // multiple 1: nx+1, the simple offset
    l.x_length = gpgpu::ghost_padded_length(grid, l.ghost, 32);
    l.coef_length = grid.nodes();
  } else {
    const std::int64_t align = std::max<std::int64_t>(1, device.base_address_align_bits / 8 / 4);
    l.pitch = (grid.nx + align - 1) / align * align;
    l.origin = kGhostRows * l.pitch;
    l.x_length = (grid.ny + 2 * kGhostRows) * l.pitch;
    l.coef_length = l.x_length;
  }
  return l;
}

DeviceBytes device_bytes(const Variant& v, const gpgpu::Grid& grid, const gpgpu::ocl::DeviceInfo& device) {
  const DeviceLayout l = device_layout(v, grid, device);
  const double coef = 4.0 * static_cast<double>(l.coef_length), x = 4.0 * static_cast<double>(l.x_length);
  return {10 * coef + 2 * x, std::max(coef, x)};
}

std::optional<std::string> device_limitation(const Variant& v, const gpgpu::Grid& grid,
                                             const gpgpu::ocl::DeviceInfo& device) {
  if (v.x_access != XAccess::Image) return std::nullopt;
  if (!device.image_support) return "the device has no image support";
  const auto texels = static_cast<std::size_t>(device_layout(v, grid, device).x_length);
  if (texels > device.image_max_buffer_size)
    return "x needs a 1D image of " + std::to_string(texels) + " texels; the device allows " +
           std::to_string(device.image_max_buffer_size) + " (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE)";
  return std::nullopt;
}

}  // namespace ch08
