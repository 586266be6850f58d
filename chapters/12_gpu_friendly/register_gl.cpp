// The OpenGL variants (paper 001's own technique: the convolution as a fragment shader, luminance
// and RGBA four-quadrant packing) join the chapter's run from here: CMake compiles this file only
// in a build with OpenGL, so main.cpp names no backend.
#include "gl_routines.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::RoutineVariant& v : ch12::gl_variants()) gpgpu::static_registry<gpgpu::blas::RoutineVariant>().add(std::move(v));
  return true;
}();

}  // namespace
