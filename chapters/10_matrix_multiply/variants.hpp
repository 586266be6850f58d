/// @file variants.hpp
/// @brief Chapter 10's variants, one list per backend, in the order main.cpp runs them. A backend
/// (or a library within one) that CMake did not build gives a gpgpu::NotBuilt note instead, which
/// the run prints with the reason.
#pragma once
#include <cstdint>
#include <vector>

#include "gpgpu/blas/operation.hpp"

namespace ch10 {

/// cpu_naive refuses products of more than this many multiply-adds (m n k, 645³): its column walk
/// through B misses the cache at every term once n is large, and the paper's 1024³ took its CPU 26 s
/// (Tab. 4); a sweep past n = 645 leaves it out.
inline constexpr std::int64_t kNaiveMaxMnk = std::int64_t{1} << 28;

/// The paper's CPU row (the textbook triple loop on one thread, Tabs. 4-6) and, where CMake found
/// it, OpenBLAS (sgemm/dgemm on every core: the library a user would pick) (cpu_variants.cpp).
std::vector<gpgpu::blas::GemmVariant> cpu_variants();

/// Our kernels of kernels/blas/cuda in step order: cuda_naive, cuda_tile16, cuda_blocktile_1d,
/// cuda_blocktile_2d, cuda_vectorized, cuda_warptile, cuda_double_buffer, cuda_tf32_wmma,
/// cuda_three_stage, cuda_prefetch (cuda_variants.cpp).
#if GPGPU_BUILT_CUDA
std::vector<gpgpu::blas::GemmVariant> cuda_variants();
#else
inline gpgpu::NotBuilt cuda_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_CUDA}; }
#endif

/// The library a user would pick instead: cublas_sgemm (strict FP32), cublas_sgemm_tf32 (TF32
/// tensor cores), cublas_dgemm (cublas_variants.cpp).
#if GPGPU_HAVE_CUBLAS
std::vector<gpgpu::blas::GemmVariant> cublas_variants();
#elif GPGPU_BUILT_CUDA
inline gpgpu::NotBuilt cublas_variants() {
  return {gpgpu::Backend::cuda, "cuBLAS (CUDA::cublas) was not found: cublas_sgemm, cublas_sgemm_tf32 and cublas_dgemm"};
}
#else
inline std::vector<gpgpu::blas::GemmVariant> cublas_variants() { return {}; }  // cuda_variants() says why
#endif

/// The ports of the CUDA kernels of the same names, kernels/blas/opencl/10_*.cl: cl_naive,
/// cl_tile16, cl_blocktile_1d, cl_blocktile_2d, cl_vectorized, cl_warptile, cl_prefetch
/// (opencl_variants.cpp).
#if GPGPU_BUILT_OPENCL
std::vector<gpgpu::blas::GemmVariant> opencl_variants();
#else
inline gpgpu::NotBuilt opencl_variants() { return {gpgpu::Backend::opencl, GPGPU_WHY_OPENCL}; }
#endif

}  // namespace ch10
