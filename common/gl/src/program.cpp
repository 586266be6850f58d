#include "gpgpu/gl/program.hpp"

#include <algorithm>

#include "embedded/fullscreen_vert.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/gl/check.hpp"

namespace gpgpu::gl {
namespace {

const char* stage_name(GLenum stage) {
  switch (stage) {
    case GL_VERTEX_SHADER: return "vertex shader";
    case GL_FRAGMENT_SHADER: return "fragment shader";
    case GL_COMPUTE_SHADER: return "compute shader";
    default: return "shader";
  }
}

// "kernels/x/gl/a.frag" or "file 0 = kernels/x/gl/a.frag, file 1 = kernels/x/gl/b.glsl".
std::string describe_files(const std::vector<EmbeddedText>& files) {
  if (files.size() == 1) return std::string(files.front().path);
  std::string out;
  for (std::size_t i = 0; i < files.size(); ++i)
    out += (i ? ", " : "") + ("file " + std::to_string(i) + " = ") + std::string(files[i].path);
  return out;
}

// The info log of a shader (glGetShaderiv, glGetShaderInfoLog) or a program (the Program versions).
template <typename GetIv, typename GetLog>
std::string info_log(GLuint id, GetIv get_iv, GetLog get_log) {
  GLint length = 0;
  GPGPU_GL(get_iv(id, GL_INFO_LOG_LENGTH, &length));
  std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
  GPGPU_GL(get_log(id, static_cast<GLsizei>(log.size()), nullptr, log.data()));
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
  return log.empty() ? "(the driver gave no log)" : log;
}

}  // namespace

Shader compile_shader(const ShaderStage& stage) {
  Shader shader(stage.stage);
  std::vector<const GLchar*> texts;
  std::vector<GLint> lengths;
  for (const EmbeddedText& f : stage.files) {
    texts.push_back(f.text.data());
    lengths.push_back(static_cast<GLint>(f.text.size()));
  }
  GPGPU_GL(glShaderSource(shader.id(), static_cast<GLsizei>(texts.size()), texts.data(), lengths.data()));
  GPGPU_GL(glCompileShader(shader.id()));
  GLint ok = GL_FALSE;
  GPGPU_GL(glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok));
  if (ok != GL_TRUE)
    throw ApiError(describe_failed_call("glCompileShader", __FILE__, __LINE__,
                                        std::string(stage_name(stage.stage)) + " " + describe_files(stage.files) +
                                            " does not compile: " + info_log(shader.id(), glGetShaderiv, glGetShaderInfoLog)));
  return shader;
}

Program link_program(const std::vector<ShaderStage>& stages) {
  Program program;
  std::vector<Shader> shaders;
  std::vector<EmbeddedText> all_files;
  for (const ShaderStage& s : stages) {
    shaders.push_back(compile_shader(s));
    GPGPU_GL(glAttachShader(program.id(), shaders.back().id()));
    all_files.insert(all_files.end(), s.files.begin(), s.files.end());
  }
  GPGPU_GL(glLinkProgram(program.id()));
  GLint ok = GL_FALSE;
  GPGPU_GL(glGetProgramiv(program.id(), GL_LINK_STATUS, &ok));
  if (ok != GL_TRUE) {
    std::string paths;
    for (const EmbeddedText& f : all_files) paths += (paths.empty() ? "" : ", ") + std::string(f.path);
    throw ApiError(describe_failed_call("glLinkProgram", __FILE__, __LINE__,
                                        "program of " + paths + " does not link: " + info_log(program.id(), glGetProgramiv, glGetProgramInfoLog)));
  }
  // The shader objects may go now: the linked program keeps its own copy of the code.
  return program;
}

GLint uniform_location(const Program& program, const char* name) {
  const GLint location = GPGPU_GL(glGetUniformLocation(program.id(), name));
  if (location < 0)
    throw ApiError(describe_failed_call("glGetUniformLocation", __FILE__, __LINE__,
                                        std::string("the program has no active uniform '") + name +
                                            "' (misspelt, or unused and removed by the compiler)"));
  return location;
}

EmbeddedText fullscreen_vertex_shader() { return embedded::fullscreen_vert; }

Program link_fullscreen_program(const std::vector<EmbeddedText>& fragment_files) {
  return link_program({{GL_VERTEX_SHADER, {fullscreen_vertex_shader()}}, {GL_FRAGMENT_SHADER, fragment_files}});
}

}  // namespace gpgpu::gl
