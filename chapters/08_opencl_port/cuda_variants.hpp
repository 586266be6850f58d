/// @file cuda_variants.hpp
/// @brief The CUDA originals of the four ported kernels, as variants of the same run, so that the
/// chapter can compare each OpenCL kernel with its original on the same GPU (port_report.hpp).
#pragma once
#include <vector>

#include "gpgpu/jacobi/solver.hpp"

namespace ch08 {

#if GPGPU_BUILT_CUDA
/// cuda_simple, cuda_aligned, cuda_shared and cuda_texture: chapters 03, 04, 06 and 07's variants
/// (problems/jacobi/cuda/), renamed, in blocks of 64 threads (the paper's and --wg's default).
std::vector<gpgpu::jacobi::Variant> cuda_variants();
#else
inline gpgpu::NotBuilt cuda_variants() { return {gpgpu::Backend::cuda, GPGPU_WHY_CUDA}; }
#endif

}  // namespace ch08
