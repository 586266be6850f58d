// The CUDA variants and the GPU's FMA peak join the chapter's run from here: CMake compiles this
// file only in a build with CUDA (CUDA_SOURCES), so main.cpp names no backend.
#include "cuda_gemm.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::VariantSpec& v : ch10::cuda_variants()) gpgpu::static_registry<gpgpu::blas::VariantSpec>().add(std::move(v));
  return true;
}();
const gpgpu::blas::PeakRegistration kPeak{{gpgpu::Backend::cuda, ch10::cuda_fma_peak}};

}  // namespace
