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

std::int64_t ghost_offset(const Variant& v, const gpgpu::Grid& grid) {
  return v.aligned_ghosts ? gpgpu::aligned_offset(grid, kAlignElements) : gpgpu::simple_offset(grid);
}

DeviceBytes device_bytes(const Variant& v, const gpgpu::Grid& grid) {
  const double nodes = static_cast<double>(grid.nodes());
  const double padded_x = static_cast<double>(gpgpu::ghost_padded_length(grid, ghost_offset(v, grid)));
  return {4.0 * (10 * nodes + 2 * padded_x), 4.0 * std::max(nodes, padded_x)};
}

std::optional<std::string> device_limitation(const Variant& v, const gpgpu::Grid& grid,
                                             const gpgpu::ocl::DeviceInfo& device) {
  if (v.x_access != XAccess::Image) return std::nullopt;
  if (!device.image_support) return "the device has no image support";
  const auto texels = static_cast<std::size_t>(gpgpu::ghost_padded_length(grid, ghost_offset(v, grid)));
  if (texels > device.image_max_buffer_size)
    return "x needs a 1D image of " + std::to_string(texels) + " texels; the device allows " +
           std::to_string(device.image_max_buffer_size) + " (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE)";
  return std::nullopt;
}

}  // namespace ch08
