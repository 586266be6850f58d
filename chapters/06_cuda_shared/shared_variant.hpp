/// @file shared_variant.hpp
/// @brief Chapter 06's variant, `shared`: chapter 05's pitched layout with x rows staged in shared
/// memory, for this chapter's run, for chapter 07 that runs it beside its own, and for chapter 08's
/// CUDA twin of the OpenCL local-memory kernel.
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch06 {

/// kernels/jacobi/cuda/06_shared.cu on chapter 05's PitchedSolver (blocks of 64 threads unless
/// --block says otherwise). `launch` must outlive the spec.
gpgpu::jacobi::VariantSpec shared_variant(const ch03::LaunchOptions& launch);

/// kernels/jacobi/cuda/06_shared_paper.cu on the same solver: the tile loaded as the paper's Fig. 15
/// shows it (every thread its own, aligned column; the first and the last thread the halo).
gpgpu::jacobi::VariantSpec shared_paper_variant(const ch03::LaunchOptions& launch);

}  // namespace ch06
