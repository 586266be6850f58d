/// @file texture_variant.hpp
/// @brief Chapter 07's variant, `texture`: x through texture objects, for this chapter's run, for
/// chapter 07b that runs it first, and for chapter 08's CUDA twin of the OpenCL image kernel.
#pragma once
#include "cuda_chapter.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch07 {

/// kernels/jacobi/cuda/07_texture.cu on a TextureSolver (blocks of 64 threads unless --block says
/// otherwise). Its check_fits refuses a grid whose padded x is wider than the device's widest 1D
/// linear texture, or that does not fit into device memory. `launch` must outlive the spec.
gpgpu::jacobi::VariantSpec texture_variant(const ch03::LaunchOptions& launch);

}  // namespace ch07
