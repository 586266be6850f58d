#include "field_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ch02 {

std::size_t FieldLayout::texture_values() const {
  return static_cast<std::size_t>(texture_width()) * static_cast<std::size_t>(texture_height()) *
         static_cast<std::size_t>(unknowns_per_texel);
}

std::vector<float> FieldLayout::pack(std::span<const float> values, float pad) const {
  if (static_cast<std::int64_t>(values.size()) != grid.nodes())
    throw std::invalid_argument("pack: " + std::to_string(values.size()) + " values for grid " + grid.str());
  const auto nx = static_cast<std::size_t>(grid.nx);
  const std::size_t row = static_cast<std::size_t>(texture_width()) * static_cast<std::size_t>(unknowns_per_texel);
  std::vector<float> out(texture_values(), pad);
  for (std::size_t j = 0; j < static_cast<std::size_t>(grid.ny); ++j)
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(j * nx), nx, out.begin() + static_cast<std::ptrdiff_t>(j * row));
  return out;
}

std::vector<float> FieldLayout::unpack(std::span<const float> texels) const {
  if (texels.size() != texture_values())
    throw std::invalid_argument("unpack: " + std::to_string(texels.size()) + " values, expected " +
                                std::to_string(texture_values()));
  const auto nx = static_cast<std::size_t>(grid.nx);
  const std::size_t row = static_cast<std::size_t>(texture_width()) * static_cast<std::size_t>(unknowns_per_texel);
  std::vector<float> out(static_cast<std::size_t>(grid.nodes()));
  for (std::size_t j = 0; j < static_cast<std::size_t>(grid.ny); ++j)
    std::copy_n(texels.begin() + static_cast<std::ptrdiff_t>(j * row), nx, out.begin() + static_cast<std::ptrdiff_t>(j * nx));
  return out;
}

gpgpu::gl::Texture2D FieldLayout::make_texture(std::span<const float> values, float pad) const {
  return gpgpu::gl::make_texture(format(), texture_width(), texture_height(), pack(values, pad));
}

}  // namespace ch02
