// The CUDA variants join the chapter's run from here: CMake compiles this file only in a build with
// CUDA (CUDA_SOURCES), so main.cpp names no backend. Without CUDA the run says the backend was not
// built; on a machine without a GPU, that it is missing; the other variants run alone.
#include "cuda_matrix.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::matrix::VariantSpec& v : ch09::cuda_variants()) gpgpu::static_registry<gpgpu::matrix::VariantSpec>().add(std::move(v));
  return true;
}();

}  // namespace
