/// @file cpu_variants.hpp
/// @brief Chapter 09's CPU variants: the paper's CPU row (the add on one thread, Tab. 8), the add on
/// every core (OpenMP), and a cache-blocked transpose on every core. They time themselves on the
/// host's clock; their "device memory" is host memory of their own, so an upload is a copy too.
#pragma once
#include <vector>

#include "gpgpu/matrix/kernel.hpp"

namespace ch09 {

/// Edge of the CPU transpose's blocks, in elements: a 32 x 32 block of doubles (8 KiB) and the
/// rows it writes stay in a 48 KiB L1 data cache while it is transposed.
inline constexpr int kCpuTransposeBlock = 32;

/// cpu_add (one thread), cpu_add_openmp, cpu_transpose_blocked (OpenMP), in that order.
std::vector<gpgpu::matrix::VariantSpec> cpu_variants();

}  // namespace ch09
