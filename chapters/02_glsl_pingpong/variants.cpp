#include "variants.hpp"

#include <stdexcept>
#include <string>

#include "embedded/jacobi_luminance_frag.hpp"
#include "embedded/jacobi_rgba_comp.hpp"
#include "embedded/jacobi_rgba_frag.hpp"
#include "embedded/jacobi_rgba_glsl.hpp"
#include "gpgpu/gl/program.hpp"

namespace ch02 {

namespace embedded = gpgpu::embedded;
using gpgpu::Dir;

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const VariantInfo& v : kVariants) names.emplace_back(v.name);
  return names;
}

const VariantInfo& variant(std::string_view name) {
  for (const VariantInfo& v : kVariants)
    if (v.name == name) return v;
  throw std::out_of_range("unknown variant '" + std::string(name) + "'");
}

bool supported(const VariantInfo& v, const gpgpu::gl::ContextInfo& info) {
  return v.launch == Launch::Fragment || info.compute_shaders;
}

double texture_bytes(const VariantInfo& v, gpgpu::Grid grid) {
  const FieldLayout layout{grid, v.unknowns_per_texel};
  return 12.0 * 4.0 * static_cast<double>(layout.texture_values());  // 9 diagonals, f, 2 iterates
}

std::vector<SamplerInput> system_inputs(const gpgpu::LinearSystem& sys, const FieldLayout& layout) {
  SamplerInput diagonals{"A", {}};
  for (const Dir d : gpgpu::kAllDirs)
    diagonals.textures.push_back(layout.make_texture(sys.A.diag[gpgpu::idx(d)], d == Dir::C ? 1.0f : 0.0f));
  SamplerInput rhs{"f", {}};
  rhs.textures.push_back(layout.make_texture(sys.rhs));
  std::vector<SamplerInput> inputs;
  inputs.push_back(std::move(diagonals));
  inputs.push_back(std::move(rhs));
  return inputs;
}

PingPongSolver make_solver(const VariantInfo& v, const gpgpu::LinearSystem& sys) {
  const FieldLayout layout{sys.grid, v.unknowns_per_texel};
  gpgpu::gl::Program program =
      v.launch == Launch::Compute ? gpgpu::gl::link_program({{GL_COMPUTE_SHADER, {embedded::jacobi_rgba_comp, embedded::jacobi_rgba_glsl}}})
      : v.unknowns_per_texel == 4 ? gpgpu::gl::link_fullscreen_program({embedded::jacobi_rgba_frag, embedded::jacobi_rgba_glsl})
                                  : gpgpu::gl::link_fullscreen_program({embedded::jacobi_luminance_frag});
  return PingPongSolver(layout, std::move(program), v.launch, system_inputs(sys, layout));
}

}  // namespace ch02
