// Chapter 02's variants (which shaders, which layout, which launch) and the solver each one gets.
#include "gl_variants.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "embedded/_02_01_luminance_frag.hpp"
#include "embedded/_02_02_rgba_frag.hpp"
#include "embedded/_02_03_rgba_comp.hpp"
#include "embedded/_02_rgba_glsl.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/opener.hpp"
#include "gpgpu/gl/program.hpp"

namespace ch02 {

namespace embedded = gpgpu::embedded;
using gpgpu::jacobi::Dir;

const GlVariant& variant(std::string_view name) {
  for (const GlVariant& v : kVariants)
    if (v.name == name) return v;
  throw std::out_of_range("unknown variant '" + std::string(name) + "'");
}

bool supported(const GlVariant& v, const gpgpu::gl::ContextInfo& info) {
  return v.launch == Launch::Fragment || info.compute_shaders;
}

double texture_bytes(const GlVariant& v, gpgpu::jacobi::Grid grid) {
  const FieldLayout layout{grid, v.unknowns_per_texel};
  return 12.0 * 4.0 * static_cast<double>(layout.texture_values());  // 9 diagonals, f, 2 iterates
}

std::vector<SamplerInput> system_inputs(const gpgpu::jacobi::LinearSystem& sys, const FieldLayout& layout) {
  SamplerInput diagonals{"A", {}};
  for (const Dir d : gpgpu::jacobi::kAllDirs)
    diagonals.textures.push_back(layout.make_texture(sys.A.diag[gpgpu::jacobi::idx(d)], d == Dir::C ? 1.0f : 0.0f));
  SamplerInput rhs{"f", {}};
  rhs.textures.push_back(layout.make_texture(sys.rhs));
  std::vector<SamplerInput> inputs;
  inputs.push_back(std::move(diagonals));
  inputs.push_back(std::move(rhs));
  return inputs;
}

//! [make_solver]
std::unique_ptr<PingPongSolver> make_solver(const GlVariant& v, const gpgpu::jacobi::LinearSystem& sys,
                                            const gpgpu::gl::ContextInfo& info) {
  const FieldLayout layout{sys.grid, v.unknowns_per_texel};
  gpgpu::gl::Program program =
      v.launch == Launch::Compute ? gpgpu::gl::link_program({{GL_COMPUTE_SHADER, {embedded::_02_03_rgba_comp, embedded::_02_rgba_glsl}}})
      : v.unknowns_per_texel == 4 ? gpgpu::gl::link_fullscreen_program({embedded::_02_02_rgba_frag, embedded::_02_rgba_glsl})
                                  : gpgpu::gl::link_fullscreen_program({embedded::_02_01_luminance_frag});
  return std::make_unique<PingPongSolver>(layout, std::move(program), v.launch, system_inputs(sys, layout), info);
}
//! [make_solver]

//! [variant]
gpgpu::jacobi::Variant jacobi_variant(const GlVariant& v, gpgpu::OpenerFactory opener) {
  gpgpu::jacobi::Variant s;
  s.info = {std::string(v.name), gpgpu::Backend::gl, std::string(v.description), std::string(v.source),
            std::string(v.paper_name), "GL_TIME_ELAPSED, or host clock after glFinish"};
  s.opener = opener;
  s.pipeline = v.launch == Launch::Compute ? "compute" : "fragment";
  s.make = [&v](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& session) -> std::unique_ptr<gpgpu::jacobi::Solver> {
    return make_solver(v, sys, gpgpu::gl::session(session).info());
  };
  // Refuses, before any allocation, grids whose textures exceed the GL limits of the context.
  s.check_fits = [&v](const gpgpu::jacobi::Grid& grid, gpgpu::Session& session) {
    const gpgpu::gl::ContextInfo& info = gpgpu::gl::session(session).info();
    const FieldLayout layout{grid, v.unknowns_per_texel};
    if (layout.texture_width() > info.max_texture_size || layout.texture_height() > info.max_texture_size)
      throw gpgpu::UsageError("grid " + grid.str() + ": the " + std::string(v.name) + " variant needs " +
                              std::to_string(layout.texture_width()) + "x" + std::to_string(layout.texture_height()) +
                              " textures, more than GL_MAX_TEXTURE_SIZE " + std::to_string(info.max_texture_size) +
                              " of " + info.renderer);
    gpgpu::gl::require_texture_memory(info, texture_bytes(v, grid), "grid " + grid.str());  // one variant's at a time
  };
  s.limitation = [&v](const gpgpu::jacobi::Grid&, gpgpu::Session& session) -> std::optional<std::string> {
    const gpgpu::gl::ContextInfo& info = gpgpu::gl::session(session).info();
    if (supported(v, info)) return std::nullopt;
    return "needs OpenGL 4.3 compute shaders (this context: " + info.version + ")";
  };
  return s;
}
//! [variant]

}  // namespace ch02
