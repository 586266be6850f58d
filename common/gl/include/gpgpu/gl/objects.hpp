/// @file objects.hpp
/// @brief Move-only owners of OpenGL object names: textures, framebuffers, queries,
/// vertex arrays, shaders and programs. Each creates its name in the constructor (checked) and
/// deletes it in the destructor, so nothing leaks when an exception unwinds a half-built solver.
///
/// Objects must die while their context is current: declare the context first (it is then
/// destroyed last).
#pragma once
#include <utility>

#include "gpgpu/gl/gl.hpp"

namespace gpgpu::gl {

/// The kinds of GL object names the project owns.
enum class ObjectKind { Texture, Framebuffer, Query, VertexArray, Program };

/// Creates one name of `kind` (checked: throws ApiError).
GLuint create_object(ObjectKind kind);
/// Deletes it. Never throws: it runs in destructors, possibly while an exception unwinds, and
/// deleting a valid name of the current context cannot fail.
void destroy_object(ObjectKind kind, GLuint id) noexcept;

/// One GL object name of kind `Kind`, owned.
template <ObjectKind Kind>
class Object {
 public:
  Object() : id_(create_object(Kind)) {}
  ~Object() {
    if (id_ != 0) destroy_object(Kind, id_);
  }
  Object(Object&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  Object& operator=(Object&& other) noexcept {
    if (this != &other) {
      if (id_ != 0) destroy_object(Kind, id_);
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  /// The GL name, for GL calls.
  [[nodiscard]] GLuint id() const { return id_; }

 private:
  GLuint id_;
};

using Texture = Object<ObjectKind::Texture>;
using Framebuffer = Object<ObjectKind::Framebuffer>;
using Query = Object<ObjectKind::Query>;
using VertexArray = Object<ObjectKind::VertexArray>;
using Program = Object<ObjectKind::Program>;

/// A shader object of one stage (glCreateShader needs the stage, so it is not an Object<>).
class Shader {
 public:
  explicit Shader(GLenum stage);
  ~Shader();
  Shader(Shader&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  Shader& operator=(Shader&& other) noexcept;
  Shader(const Shader&) = delete;
  Shader& operator=(const Shader&) = delete;
  [[nodiscard]] GLuint id() const { return id_; }

 private:
  GLuint id_;
};

}  // namespace gpgpu::gl
