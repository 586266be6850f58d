// The OpenCL variants join the chapter's run from here: CMake compiles this file only in a build with
// OpenCL (OPENCL_SOURCES). Each ports a CUDA variant; when both ran, the chapter prints the ratio.
#include "opencl_matrix.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::matrix::VariantSpec& v : ch09::opencl_variants()) gpgpu::static_registry<gpgpu::matrix::VariantSpec>().add(std::move(v));
  return true;
}();

}  // namespace
