/// @file variants.hpp
/// @brief Chapter 10b's variants in the order main.cpp runs them: our kernels step by step, then
/// the library a user would pick, then, where built, a third party's kernel. cuBLAS, when CMake did
/// not find it, gives a gpgpu::NotBuilt note with the reason instead.
#pragma once
#include <vector>

#include "gpgpu/blas/operation.hpp"

namespace ch10b {

/// Our kernels of kernels/blas/cuda in step order: wmma_tf32 (chapter 10's WMMA step, the starting
/// point), mma_sync_tf32, mma_sync_bf16 (cuda_variants.cpp).
std::vector<gpgpu::blas::GemmVariant> kernel_variants();

/// Step 3, Hopper's warpgroup MMA: wgmma_tf32, wgmma_bf16 (cuda_variants.cpp), where CMake built
/// the sm_90a code (kernels/blas/cuda/CMakeLists.txt), else a note with the reason.
#if GPGPU_HAVE_WGMMA
std::vector<gpgpu::blas::GemmVariant> wgmma_variants();
#else
inline gpgpu::NotBuilt wgmma_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_NO_WGMMA, "wgmma_tf32 and wgmma_bf16"}; }
#endif

/// Steps 4-11, the tiles loaded by TMA: tma_*, pipeline_* (a ring of stages), ws_* (producer and
/// consumer warpgroups), wide_*, persistent_*, cluster_*, stream_k_*, each _tf32 and _bf16, then
/// step 11's C stored by TMA, tma_store_bf16 and tma_store_bf16_bf16c (cuda_tma_variants.cpp),
/// built with step 3's sm_90a code, else a note with the reason.
#if GPGPU_HAVE_WGMMA
std::vector<gpgpu::blas::GemmVariant> tma_variants();
#else
inline gpgpu::NotBuilt tma_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_NO_WGMMA, "the TMA steps 4-11 (TF32 and BF16)"}; }
#endif

/// The peers: cublas_tf32 (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32) and cublas_bf16 (BF16
/// inputs rounded as ours, CUBLAS_COMPUTE_32F), on B and on Bᵀ, and cublas_bf16_bf16c (C in BF16,
/// step 11's peer) (cublas_variants.cpp).
#if GPGPU_HAVE_CUBLAS
std::vector<gpgpu::blas::GemmVariant> cublas_variants();
#else
inline gpgpu::NotBuilt cublas_variants() {
  return {gpgpu::Backend::cuda, "cuBLAS (CUDA::cublas) was not found: cublas_tf32 and cublas_bf16"};
}
#endif

/// The second peer: cublaslt_tf32 and cublaslt_bf16 (cublasLtMatmul with the heuristic's algorithm
/// and a workspace) (cublaslt_variants.cpp), where CMake found CUDA::cublasLt beside CUDA::cublas.
#if GPGPU_HAVE_CUBLASLT
std::vector<gpgpu::blas::GemmVariant> cublaslt_variants();
#else
inline gpgpu::NotBuilt cublaslt_variants() {
  return {gpgpu::Backend::cuda, "cuBLASLt (CUDA::cublasLt, with CUDA::cublas) was not found: cublaslt_tf32 and cublaslt_bf16"};
}
#endif

/// A third party's kernel beside step 11: fastcu_bf16_bf16c, fast.cu's last BF16 GEMM built from its
/// source (fastcu_variant.cpp), only where CMake was given a copy of it (GPGPU_FASTCU_DIR); else no
/// row at all, since the repository does not hold its source.
#if GPGPU_HAVE_FASTCU
std::vector<gpgpu::blas::GemmVariant> fastcu_variants();
#else
inline std::vector<gpgpu::blas::GemmVariant> fastcu_variants() { return {}; }
#endif

}  // namespace ch10b
