/// @file register_block_checks.hpp
/// @brief What both checks of exercise 10 ask: C within γ_k|A||B| of the FP64 reference at sizes no
/// tile divides, every element written (C starts as NaN), for a product computed by `multiply`.
#pragma once
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"

namespace ex10::checks {

using Multiply = std::function<gpgpu::blas::HostMatrix(const gpgpu::blas::Operands&)>;

inline std::vector<gpgpu::blas::Dims> sizes() {
  return {{1, 1, 1}, {1, 200, 1}, {1, 1, 300}, {17, 103, 33}, {64, 64, 16}, {65, 63, 17}, {130, 70, 129}};
}

inline ::testing::AssertionResult within_bound(const Multiply& multiply, const gpgpu::blas::Dims& d) {
  const auto& [ops, ref] = gpgpu::blas::checks::problem(d, gpgpu::blas::ElementType::f32);
  const gpgpu::Verification v = gpgpu::blas::compare(multiply(ops), ref, gpgpu::blas::Arithmetic::fp32);
  if (v.pass) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << d.str() << ": " << v.summary();
}

}  // namespace ex10::checks
