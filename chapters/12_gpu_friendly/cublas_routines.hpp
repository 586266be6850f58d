/// @file cublas_routines.hpp
/// @brief cuBLAS beside chapter 12's kernels: cublasSaxpy, cublasSscal, cublasSgemv in both
/// orientations and cublasSgemm (strict FP32), on the same device buffers (cuda_routines.hpp).
#pragma once
#include <vector>

#include "gpgpu/blas/routine_kernel.hpp"

namespace ch12 {

/// cublas_saxpy, cublas_sscal, cublas_sgemv, cublas_sgemv_t, cublas_sgemm.
std::vector<gpgpu::blas::RoutineVariant> cublas_variants();

}  // namespace ch12
