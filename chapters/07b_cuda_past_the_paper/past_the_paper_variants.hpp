/// @file past_the_paper_variants.hpp
/// @brief Chapter 07b's variants, four steps past the paper towards the memory-bandwidth floor, each
/// on chapter 05's pitched layout. `launch` is read when a solver is made, after parsing: it must
/// outlive the spec.
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch07b {

/// `readonly`: kernels/jacobi/cuda/07b_readonly.cu, every load read-only (__ldg); blocks of 64.
gpgpu::jacobi::VariantSpec readonly_variant(const ch03::LaunchOptions& launch);

/// `tiled2d`: kernels/jacobi/cuda/07b_tiled2d.cu, 2D blocks (32 x 8 unless --block, --block-y) and an
/// x tile with its halo in shared memory.
gpgpu::jacobi::VariantSpec tiled2d_variant(const ch03::LaunchOptions& launch);

/// `multirow`: kernels/jacobi/cuda/07b_multirow.cu, 4 columns (one float4) x several rows per thread,
/// x rows kept in registers; tuned unless the launch is fixed (--no-tune, --block, --rows-per-thread).
gpgpu::jacobi::VariantSpec multirow_variant(const ch03::LaunchOptions& launch);

/// `symmetric`: kernels/jacobi/cuda/07b_symmetric.cu, multirow on 5 of the 9 diagonals (the
/// symmetric storage, work "jacobi9_symmetric": 32 instead of 48 bytes per node); tuned likewise.
gpgpu::jacobi::VariantSpec symmetric_variant(const ch03::LaunchOptions& launch);

}  // namespace ch07b
