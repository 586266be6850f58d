/// @file cublas_variants.hpp
/// @brief The library a user would pick instead: cuBLAS geam (C = alpha op(A) + beta op(B)) as a
/// transpose (alpha 1, op(A) = Aᵀ, beta 0) and as an add (alpha = beta = 1), beside the chapter's
/// kernels in the same run. cuBLAS has geam for float and double (cublasSgeam, cublasDgeam) but
/// not for int: with --type int these variants are skipped under "all" and refused when named.
/// Built only when CMake finds CUDA::cublas.
#pragma once
#include <vector>

#include "gpgpu/matrix/kernel.hpp"

namespace ch09 {

/// cuda_geam_add, cuda_geam_transpose.
std::vector<gpgpu::matrix::VariantSpec> cublas_variants();

}  // namespace ch09
