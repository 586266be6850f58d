/// @file cublas_gemm.hpp
/// @brief The library a user would pick instead: cuBLAS SGEMM in strict FP32 (compute type
/// CUBLAS_COMPUTE_32F, default math mode: no TF32), SGEMM with TF32 tensor cores
/// (CUBLAS_COMPUTE_32F_FAST_TF32) and DGEMM, beside the chapter's kernels in the same run. Built
/// only when CMake finds CUDA::cublas.
#pragma once
#include <vector>

#include "gpgpu/blas/kernel.hpp"

namespace ch10 {

/// cublas_sgemm, cublas_sgemm_tf32 (float only), cublas_dgemm (double only).
std::vector<gpgpu::blas::VariantSpec> cublas_variants();

}  // namespace ch10
