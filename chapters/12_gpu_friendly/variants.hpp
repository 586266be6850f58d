/// @file variants.hpp
/// @brief Chapter 12's variants, one list per backend, in the order main.cpp adds them (the run
/// takes them routine by routine). A backend (or a library within one) that CMake did not build
/// gives a gpgpu::NotBuilt note instead, which the run prints with the reason.
#pragma once
#include <vector>

#include "gpgpu/blas/routine_operation.hpp"

namespace ch12 {

/// The routines as the loops a textbook writes (OpenMP over every core: the paper's "simple
/// versions translated directly"): cpu_saxpy, cpu_sscal, cpu_sgemv, cpu_sgemv_t, cpu_conv2d; then,
/// where CMake found it, OpenBLAS (the maintained descendant of the Goto BLAS 1.15 that paper 001
/// measured): openblas_saxpy ... openblas_sgemm (cpu_variants.cpp).
std::vector<gpgpu::blas::RoutineVariant> cpu_variants();

/// Our kernels (kernels/blas/cuda/12_*.cu, kernels/conv/cuda/12_*.cu): cuda_saxpy,
/// cuda_sscal, cuda_sgemv_warp, cuda_sgemv_t_tiled, cuda_sgemm (chapter 10's step 7),
/// cuda_conv2d_naive ... cuda_conv2d_float4, cuda_conv2d_separable, cuda_conv2d_aligned (cuda_variants.cpp).
#if GPGPU_BUILT_CUDA
std::vector<gpgpu::blas::RoutineVariant> cuda_variants();
#else
inline gpgpu::NotBuilt cuda_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_CUDA}; }
#endif

/// cuBLAS on the same buffers: cublas_saxpy, cublas_sscal, cublas_sgemv, cublas_sgemv_t,
/// cublas_sgemm (cublas_variants.cpp).
#if GPGPU_HAVE_CUBLAS
std::vector<gpgpu::blas::RoutineVariant> cublas_variants();
#elif GPGPU_BUILT_CUDA
inline gpgpu::NotBuilt cublas_variants() {
  return {gpgpu::Backend::cuda, "cuBLAS (CUDA::cublas) was not found: cublas_saxpy ... cublas_sgemm"};
}
#else
inline std::vector<gpgpu::blas::RoutineVariant> cublas_variants() { return {}; }  // cuda_variants() says why
#endif

/// NPP's 2D filter on the same buffers: npp_conv2d (npp_variants.cpp).
#if GPGPU_HAVE_NPP
std::vector<gpgpu::blas::RoutineVariant> npp_variants();
#elif GPGPU_BUILT_CUDA
inline gpgpu::NotBuilt npp_variants() { return {gpgpu::Backend::cuda, "NPP (CUDA::nppif) was not found: npp_conv2d"}; }
#else
inline std::vector<gpgpu::blas::RoutineVariant> npp_variants() { return {}; }  // cuda_variants() says why
#endif

/// Paper 001's own GPU technique, the convolution as a fragment shader
/// (kernels/conv/gl/12_*.frag): gl_conv2d_luminance, gl_conv2d_rgba_quadrants (gl_variants.cpp).
#if GPGPU_BUILT_GL
std::vector<gpgpu::blas::RoutineVariant> gl_variants();
#else
inline gpgpu::NotBuilt gl_variants() { return {gpgpu::Backend::gl, GPGPU_WHY_GL}; }
#endif

}  // namespace ch12
