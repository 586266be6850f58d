/// @file cpu_variants.hpp
/// @brief Chapter 10's CPU variants: the paper's CPU row (the textbook triple loop on one thread,
/// Tabs. 4-6) and, when CMake finds it, OpenBLAS (sgemm/dgemm on every core: the library a user
/// would pick, today's descendant of the GotoBLAS that paper 001 measured).
#pragma once
#include <cstdint>
#include <vector>

#include "gpgpu/blas/kernel.hpp"

namespace ch10 {

/// cpu_naive refuses products of more than this many multiply-adds (m n k): on one thread at about
/// 1 GFLOP/s, 2^31 of them take seconds, the paper's 2048³ took it 212 s (Tab. 4).
inline constexpr std::int64_t kNaiveMaxMnk = std::int64_t{1} << 31;

/// cpu_naive, then cpu_openblas where OpenBLAS was found.
std::vector<gpgpu::blas::VariantSpec> cpu_variants();

}  // namespace ch10
