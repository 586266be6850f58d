/// @file sgemv_t_vec4_checks.hpp
/// @brief What both checks of exercise 12 ask: y = Aᵀ x within chapter 12's bound γ_m |Aᵀ||x| at
/// shapes no block, strip or vector width divides, with n % 4 == 0 (the float4 path) and not.
#pragma once
#include <functional>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/routines.hpp"

namespace ex12::checks {

/// (m, n): one element, one row, odd, a strip and a half, more rows than one block sweeps.
inline std::vector<std::pair<int, int>> shapes() {
  return {{1, 1}, {1, 4}, {3, 5}, {67, 129}, {129, 68}, {300, 132}, {513, 131}, {1023, 516}};
}

/// `compute(case)` (the kernel's y for the case's A and x) against the FP64 reference.
inline ::testing::AssertionResult within_bound(const std::function<std::vector<float>(const gpgpu::blas::Case&)>& compute, int m, int n) {
  gpgpu::blas::RoutineSizes s;
  s.gemv_m = m;
  s.gemv_n = n;
  const gpgpu::blas::Case c = gpgpu::blas::make_case(gpgpu::blas::Routine::sgemv_t, s, 12);
  const gpgpu::Verification v = gpgpu::blas::compare(compute(c), gpgpu::blas::reference(c));
  if (v.pass) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "y = Aᵀ x for A of " << m << " x " << n << ": " << v.summary();
}

}  // namespace ex12::checks
