/// @file variants.hpp
/// @brief Chapter 09's variants, one list per backend, in the order main.cpp runs them. A list whose
/// backend (or library) this build lacks is a gpgpu::NotBuilt note instead, which the run prints.
#pragma once
#include <vector>

#include "gpgpu/matrix/operation.hpp"

namespace ch09 {

/// cpu_add (one thread, the paper's CPU row), cpu_add_openmp, cpu_transpose_blocked (cpu_variants.cpp).
std::vector<gpgpu::matrix::Variant> cpu_variants();

/// The kernels of kernels/matrix/cuda in file order, then cudaMemcpy (cuda_variants.cpp).
#if GPGPU_BUILT_CUDA
std::vector<gpgpu::matrix::Variant> cuda_variants();
#else
inline gpgpu::NotBuilt cuda_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_CUDA}; }
#endif

/// cuBLAS geam as an add and as a transpose (cublas_variants.cpp), when CMake found CUDA::cublas.
#if GPGPU_BUILT_CUDA && GPGPU_HAVE_CUBLAS
std::vector<gpgpu::matrix::Variant> cublas_variants();
#elif GPGPU_BUILT_CUDA
inline gpgpu::NotBuilt cublas_variants() {
  return {gpgpu::Backend::cuda, "CMake found no CUDA::cublas, so no cuBLAS geam variants"};
}
#else
inline std::vector<gpgpu::matrix::Variant> cublas_variants() { return {}; }  // cuda_variants() says why
#endif

/// The ports of the CUDA kernels in kernels/matrix/opencl, then clEnqueueCopyBuffer (opencl_variants.cpp).
#if GPGPU_BUILT_OPENCL
std::vector<gpgpu::matrix::Variant> opencl_variants();
#else
inline gpgpu::NotBuilt opencl_variants() { return {gpgpu::Backend::opencl, GPGPU_WHY_OPENCL}; }
#endif

}  // namespace ch09
