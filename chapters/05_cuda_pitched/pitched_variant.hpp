/// @file pitched_variant.hpp
/// @brief Chapter 05's variant, `pitched`: the pitched layout and a 2D grid of 1D blocks, for this
/// chapter's run, for chapter 06 that runs it beside its own, and for chapter 08's CUDA twins.
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch05 {

/// kernels/jacobi/cuda/05_pitched.cu on a PitchedSolver (blocks of 64 threads unless --block says
/// otherwise). `launch` must outlive the spec.
gpgpu::jacobi::VariantSpec pitched_variant(const ch03::LaunchOptions& launch);

/// The check_fits of every variant on the pitched layout with `stored` diagonals (chapters 05-07b).
std::function<void(const gpgpu::jacobi::Grid&, gpgpu::Session&)> fits_pitched(std::string variant, int stored = 9);

}  // namespace ch05
