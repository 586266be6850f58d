// The CUDA variants and the GPU's FMA peak (chapter 10's kernel and host code) join the chapter's
// run from here: CMake compiles this file only in a build with CUDA, so main.cpp names no backend.
#include "cuda_gemm.hpp"
#include "cuda_routines.hpp"

namespace {

const bool kRegistered = [] {
  for (gpgpu::blas::RoutineVariant& v : ch12::cuda_variants()) gpgpu::static_registry<gpgpu::blas::RoutineVariant>().add(std::move(v));
  return true;
}();
const gpgpu::blas::PeakRegistration kPeak{{gpgpu::Backend::cuda, ch10::cuda_fma_peak}};

}  // namespace
