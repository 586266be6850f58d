/// @file variants.hpp
/// @brief Chapter 10c's variants in the order main.cpp runs them: our FP8 steps, then the library a
/// user would pick. A part CMake could not build gives a gpgpu::NotBuilt note with the reason instead.
#pragma once
#include <vector>

#include "gpgpu/blas/operation.hpp"

namespace ch10c {

/// Step 1, E4M3 inputs with a scale per tensor (fp8_tensor, fp8_tensor_bf16c), and step 2, a scale
/// per block with the sums promoted to FP32 every 128 of k (fp8_block, fp8_block_bf16c)
/// (cuda_variants.cpp), built with chapter 10b's sm_90a code, else a note with the reason.
#if GPGPU_HAVE_WGMMA
std::vector<gpgpu::blas::GemmVariant> fp8_variants();
#else
inline gpgpu::NotBuilt fp8_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_NO_WGMMA, "the FP8 steps 1 and 2"}; }
#endif

/// The peers: cublaslt_bf16, cuBLASLt's BF16 product (the rate FP8 is to double), then the FP8 rows
/// cublaslt_fp8* (E4M3 A and Bᵀ with a scale per tensor, FP32 or BF16 C, the heuristic's algorithm
/// or the fastest of its top candidates, and one row that quantises in every call)
/// (cublaslt_variants.cpp), where CMake found CUDA::cublasLt beside CUDA::cublas.
#if GPGPU_HAVE_CUBLASLT
std::vector<gpgpu::blas::GemmVariant> cublaslt_variants();
#else
inline gpgpu::NotBuilt cublaslt_variants() {
  return {gpgpu::Backend::cuda, "cuBLASLt (CUDA::cublasLt, with CUDA::cublas) was not found: cublaslt_bf16 and cublaslt_fp8*"};
}
#endif

}  // namespace ch10c
