/// @file cpu_variants.hpp
/// @brief Chapter 12's CPU variants: the routines as the loops a textbook writes (OpenMP over
/// every core: the paper's "simple versions translated directly"), OpenBLAS where CMake found it
/// (the maintained descendant of the Goto BLAS 1.15 that paper 001 measured), the OpenMP
/// convolution of problems/conv; and the CPU's FMA peak for the roofline.
#pragma once
#include <vector>

#include "gpgpu/blas/routine_kernel.hpp"

namespace ch12 {

/// cpu_saxpy, cpu_sscal, cpu_sgemv, cpu_sgemv_t, cpu_conv2d, then the openblas_* variants.
std::vector<gpgpu::blas::RoutineVariant> cpu_variants();

}  // namespace ch12
