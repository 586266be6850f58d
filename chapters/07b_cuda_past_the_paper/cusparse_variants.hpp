/// @file cusparse_variants.hpp
/// @brief Chapter 07b's library peer, `cusparse`: what a user who does not write kernels would run,
/// the weighted Jacobi step as cuSPARSE's general sparse matrix-vector product (SpMV) on a CSR
/// matrix built from the nine diagonals (csr_matrix.hpp): x_new = c + M x, one cudaMemcpyAsync of
/// c and one cusparseSpMV (alpha = beta = 1) per iteration. Built only when CMake finds cuSPARSE
/// (CUDA::cusparse); without it the chapter gets a note that says so.
#pragma once
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch07b {

#if GPGPU_HAVE_CUSPARSE
/// The `cusparse` variant (work "jacobi9": it is judged by the same 48 B per node as the kernels,
/// although CSR makes it move about twice that). cuSPARSE chooses its own launches.
gpgpu::jacobi::Variant cusparse_variant();
#else
inline gpgpu::NotBuilt cusparse_variant() {
  return {gpgpu::Backend::cuda, "CMake found no cuSPARSE (CUDA::cusparse) in the CUDA toolkit", "cusparse"};
}
#endif

}  // namespace ch07b
