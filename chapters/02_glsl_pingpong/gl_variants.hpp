/// @file gl_variants.hpp
/// @brief Chapter 02's variants: which shaders, how the unknowns sit in the textures, how each is
/// launched, and the ping-pong solver (ping_pong.hpp) each one gets.
#pragma once
#include <array>
#include <memory>
#include <string_view>
#include <vector>

#include "field_layout.hpp"
#include "gpgpu/gl/context.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "ping_pong.hpp"

namespace ch02 {

/// A variant of this chapter: its shaders, how the unknowns sit in the textures, how it is launched:
///   luminance     one unknown per GL_R32F texel, fragment shader (paper 000, sec. 5.1, Fig. 7)
///   rgba          four unknowns per GL_RGBA32F texel, vec4 arithmetic (sec. 5.2, Figs. 8-9)
///   rgba_compute  the rgba stencil as an OpenGL 4.3 compute shader (past the paper)
struct GlVariant {
  std::string_view name;
  std::string_view description;
  std::string_view paper_name;  ///< its column in paper 000's tables ("" if none)
  std::string_view source;      ///< the shader files
  int unknowns_per_texel;
  Launch launch;
};

inline constexpr std::array kVariants{
    GlVariant{"luminance", "one unknown per GL_R32F texel, fragment shader (paper Fig. 7)", "OGL Luminance",
            "kernels/jacobi/gl/02_01_luminance.frag", 1, Launch::Fragment},
    GlVariant{"rgba", "four unknowns per GL_RGBA32F texel, vec4 fragment shader (paper Figs. 8-9)", "OGL RGBA",
            "kernels/jacobi/gl/02_02_rgba.frag + 02_rgba.glsl", 4, Launch::Fragment},
    GlVariant{"rgba_compute", "the rgba stencil as a GL 4.3 compute shader (past the paper)", "",
            "kernels/jacobi/gl/02_03_rgba.comp + 02_rgba.glsl", 4, Launch::Compute},
};

/// The entry of `name`; throws std::out_of_range for an unknown name.
const GlVariant& variant(std::string_view name);
/// True when the context can run the variant (compute shaders need OpenGL 4.3).
bool supported(const GlVariant& v, const gpgpu::gl::ContextInfo& info);
/// Texture memory the variant's solver needs: 9 diagonals, f and two iterates.
double texture_bytes(const GlVariant& v, gpgpu::jacobi::Grid grid);

/// The inputs of the 9-diagonal shaders in `layout`: `A` (nine textures, SW..NE) and `f`.
/// Padding lanes of the centre diagonal hold 1, all other padding 0 (kernels/jacobi/gl/02_rgba.glsl).
std::vector<SamplerInput> system_inputs(const gpgpu::jacobi::LinearSystem& sys, const FieldLayout& layout);

/// The solver of variant `v` for `sys` in the current context: its shaders compiled and linked,
/// its textures uploaded.
std::unique_ptr<PingPongSolver> make_solver(const GlVariant& v, const gpgpu::jacobi::LinearSystem& sys,
                                            const gpgpu::gl::ContextInfo& info);

/// The variant for the chapter run (gpgpu::jacobi::Chapter): backend gl, its pipeline, the solver,
/// the GL limits its grid must fit, and why a context cannot run it. Its timer is the name of
/// gpgpu::gl::GpuTimer's policy; the chapter names the timer the context gets.
gpgpu::jacobi::Variant jacobi_variant(const GlVariant& v, gpgpu::OpenerFactory opener);

}  // namespace ch02
