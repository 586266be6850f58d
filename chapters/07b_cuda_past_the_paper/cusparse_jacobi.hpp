/// @file cusparse_jacobi.hpp
/// @brief Chapter 07b's library peer, `cusparse`: what a user who does not write kernels would run,
/// the weighted Jacobi step as cuSPARSE's general sparse matrix-vector product (SpMV) on a CSR
/// matrix built from the nine diagonals (csr_matrix.hpp): x_new = c + M x, one cudaMemcpyAsync of
/// c and one cusparseSpMV (alpha = beta = 1) per iteration. Built, and registered as a variant of
/// the chapter, only when CMake finds cuSPARSE (CUDA::cusparse).
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch07b {

/// The `cusparse` variant (work "jacobi9": it is judged by the same 48 B per node as the kernels,
/// although CSR makes it move about twice that). `launch` is unused: cuSPARSE chooses its own.
gpgpu::jacobi::VariantSpec cusparse_variant(const ch03::LaunchOptions& launch);

}  // namespace ch07b
