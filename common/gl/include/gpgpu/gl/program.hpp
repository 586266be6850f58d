/// @file program.hpp
/// @brief Compiling and linking shaders embedded at build time (gpgpu_embed_text), with the
/// driver's info log and the source file's path in every error.
///
/// A shader stage may be built from several files, compiled as one shader object in order: the
/// first holds the `#version` line and the entry point, the later ones functions it declares
/// (GLSL has no `#include`). Drivers number the files in their messages ("0:12(3): error ..."
/// from Mesa, "0(12) : error ..." from NVIDIA: file 0, line 12), so the error lists them.
#pragma once
#include <string>
#include <vector>

#include "gpgpu/embedded_text.hpp"
#include "gpgpu/gl/objects.hpp"

namespace gpgpu::gl {

/// One stage of a program: GL_VERTEX_SHADER, GL_FRAGMENT_SHADER or GL_COMPUTE_SHADER, and its files.
struct ShaderStage {
  GLenum stage;
  std::vector<EmbeddedText> files;
};

/// Compiles one stage; throws ApiError with the info log and the files' paths if it fails.
Shader compile_shader(const ShaderStage& stage);

/// Compiles every stage and links them; throws ApiError with the info log and all paths.
Program link_program(const std::vector<ShaderStage>& stages);

/// A uniform's location. Throws ApiError when the program has no active uniform of that name:
/// a misspelt name, or one the compiler removed because the shader does not use it.
GLint uniform_location(const Program& program, const char* name);

/// The vertex shader of every full-screen pass (common/gl/shaders/fullscreen.vert): one triangle that
/// covers the viewport, so every pixel runs the fragment shader exactly once.
EmbeddedText fullscreen_vertex_shader();

/// Links `fragment_files` behind the full-screen vertex shader.
Program link_fullscreen_program(const std::vector<EmbeddedText>& fragment_files);

}  // namespace gpgpu::gl
