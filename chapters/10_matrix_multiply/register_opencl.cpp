// The OpenCL variants join the chapter's run from here: CMake compiles this file only in a build
// with OpenCL (OPENCL_SOURCES), so main.cpp names no backend.
#include "opencl_gemm.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::VariantSpec& v : ch10::opencl_variants()) gpgpu::static_registry<gpgpu::blas::VariantSpec>().add(std::move(v));
  return true;
}();

}  // namespace
