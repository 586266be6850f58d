/// @file cpu_variants.hpp
/// @brief Chapter 10's CPU variants: the paper's CPU row (the textbook triple loop on one thread,
/// Tabs. 4-6) and, when CMake finds it, OpenBLAS (sgemm/dgemm on every core: the library a user
/// would pick, today's descendant of the GotoBLAS that paper 001 measured).
#pragma once
#include <cstdint>
#include <vector>

#include "gpgpu/blas/kernel.hpp"

namespace ch10 {

/// cpu_naive refuses products of more than this many multiply-adds (m n k, 645³): its column walk
/// through B misses the cache at every term once n is large, and the paper's 1024³ took its CPU 26 s
/// (Tab. 4); the sweep keeps it up to n = 512.
inline constexpr std::int64_t kNaiveMaxMnk = std::int64_t{1} << 28;

/// cpu_naive, then cpu_openblas where OpenBLAS was found.
std::vector<gpgpu::blas::VariantSpec> cpu_variants();

}  // namespace ch10
