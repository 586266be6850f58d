/// @file aligned_variants.hpp
/// @brief Chapter 04's variants: chapter 03's host code (ch03::LinearSolver) with the ghost offset
/// rounded up to the coalescing width, so that unknown 0, and with it every warp's store and centre
/// load, starts on a segment boundary. For this chapter's run, the later chapters that run `aligned`
/// beside theirs, and chapter 08's CUDA twin.
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch04 {

/// The paper's alignment: 16 floats, one 64-byte half-warp transaction of compute capability 1.x.
inline constexpr int kPaperAlignment = 16;
/// Today's: 32 floats, one 128-byte line (four 32-byte sectors) for a full warp. Chapter 07's
/// texture objects read this layout.
inline constexpr int kLineAlignment = 32;

/// `aligned`: kernels/jacobi/cuda/04_aligned.cu with the offset nx+1 rounded up to kPaperAlignment
/// (blocks of 64 threads unless --block says otherwise). `launch` must outlive the spec.
gpgpu::jacobi::VariantSpec aligned_variant(const ch03::LaunchOptions& launch);

/// `aligned32`: the same kernel with the offset rounded up to kLineAlignment.
gpgpu::jacobi::VariantSpec aligned32_variant(const ch03::LaunchOptions& launch);

}  // namespace ch04
