/// @file opencl_gemm.hpp
/// @brief Chapter 10's OpenCL host code: the counterpart of cuda_gemm.hpp (buffers, kernel
/// arguments, an NDRange launched `calls` times and timed by profiling events, C read back), and
/// the records of the OpenCL variants, each the port of a CUDA variant.
#pragma once
#include <vector>

#include "gpgpu/blas/kernel.hpp"

namespace ch10 {

/// cl_naive, cl_tile16, cl_blocktile_1d, cl_blocktile_2d, cl_vectorized, cl_warptile: ports of
/// the CUDA kernels of the same names (kernels/blas/opencl/10_*.cl).
std::vector<gpgpu::blas::VariantSpec> opencl_variants();

}  // namespace ch10
