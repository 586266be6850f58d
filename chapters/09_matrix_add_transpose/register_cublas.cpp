// cuBLAS geam beside the chapter's kernels: compiled only when CMake found CUDA::cublas (see
// CMakeLists.txt), after register_cuda.cpp, so the library's rows follow the kernels'.
#include "cublas_variants.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::matrix::VariantSpec& v : ch09::cublas_variants()) gpgpu::static_registry<gpgpu::matrix::VariantSpec>().add(std::move(v));
  return true;
}();

}  // namespace
