/// @file variants.hpp
/// @brief Chapter 02's variants: which shaders, which texture layout, how they are launched.
///
///   luminance     one unknown per GL_R32F texel, fragment shader (paper 000, sec. 5.1, Fig. 7)
///   rgba          four unknowns per GL_RGBA32F texel, vec4 arithmetic (sec. 5.2, Figs. 8-9)
///   rgba_compute  the rgba stencil as an OpenGL 4.3 compute shader (past the paper)
#pragma once
#include <array>
#include <string_view>
#include <vector>

#include "gpgpu/gl/context.hpp"
#include "gpgpu/problem.hpp"
#include "ping_pong.hpp"

namespace ch02 {

struct VariantInfo {
  std::string_view name;
  std::string_view description;
  std::string_view paper_implementation;  ///< its column in paper 000's tables ("" if none)
  int unknowns_per_texel;
  Launch launch;
};

inline constexpr std::array kVariants{
    VariantInfo{"luminance", "one unknown per GL_R32F texel, fragment shader (paper Fig. 7)", "OGL Luminance", 1,
                Launch::Fragment},
    VariantInfo{"rgba", "four unknowns per GL_RGBA32F texel, vec4 fragment shader (paper Figs. 8-9)", "OGL RGBA", 4,
                Launch::Fragment},
    VariantInfo{"rgba_compute", "the rgba stencil as a GL 4.3 compute shader (past the paper)", "", 4, Launch::Compute},
};

/// The names, in order, for the command line.
std::vector<std::string> variant_names();
/// The entry of `name`; throws std::out_of_range for an unknown name.
const VariantInfo& variant(std::string_view name);
/// True when the context can run the variant (compute shaders need OpenGL 4.3).
bool supported(const VariantInfo& v, const gpgpu::gl::ContextInfo& info);
/// Texture memory the variant's solver needs: 9 diagonals, f and two iterates.
double texture_bytes(const VariantInfo& v, gpgpu::Grid grid);

/// The inputs of the 9-diagonal shaders in `layout`: `A` (nine textures, SW..NE) and `f`.
/// Padding lanes of the centre diagonal hold 1, all other padding 0 (shaders/jacobi_rgba.glsl).
std::vector<SamplerInput> system_inputs(const gpgpu::LinearSystem& sys, const FieldLayout& layout);

/// The solver of variant `v` for `sys`: its shaders compiled and linked, its textures uploaded.
PingPongSolver make_solver(const VariantInfo& v, const gpgpu::LinearSystem& sys);

}  // namespace ch02
