/// @file npp_routines.hpp
/// @brief NPP beside chapter 12's convolution kernels: nppiFilter_32f_C1R, the 2D filter a user
/// would call, on the same device buffers (cuda_routines.hpp). Compiled only where CMake finds
/// CUDA::nppif (the toolkit's image-filtering library; a minimal install lacks it).
#pragma once
#include <vector>

#include "gpgpu/blas/routine_kernel.hpp"

namespace ch12 {

/// npp_conv2d.
std::vector<gpgpu::blas::RoutineVariant> npp_variants();

}  // namespace ch12
