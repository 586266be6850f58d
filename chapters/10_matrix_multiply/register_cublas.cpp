// cuBLAS beside the chapter's kernels: compiled only when CMake found CUDA::cublas (see
// CMakeLists.txt), after register_cuda.cpp, so the library's rows follow the kernels'.
#include "cublas_gemm.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::VariantSpec& v : ch10::cublas_variants()) gpgpu::static_registry<gpgpu::blas::VariantSpec>().add(std::move(v));
  return true;
}();

}  // namespace
