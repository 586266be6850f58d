/// @file register_block_checks.hpp
/// @brief What both checks of exercise 10 ask: a tile shape within the budgets of
/// gemm_register_block.hpp, and C within γ_k|A||B| of the FP64 reference at sizes no tile divides,
/// every element written (C starts as NaN), for a product computed by `multiply`; A and B each lie
/// between guard zones of NaN (guarded), so a load past either end poisons C even where the other
/// operand's zero multiplies it (0 × NaN is NaN).
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "gemm_register_block.hpp"
#include "gpgpu/blas/checks.hpp"

namespace ex10::checks {

using Multiply = std::function<gpgpu::blas::HostMatrix(const gpgpu::blas::Operands&)>;

/// Floats of NaN before and after A and B: more than a step of k or a tile's row, so a load a tile
/// past either end lands in a guard.
constexpr std::size_t kGuard = 256;

/// `values` with kGuard NaNs before and after; the operand starts at element kGuard.
inline std::vector<float> guarded(std::span<const float> values) {
  std::vector<float> out(values.size() + 2 * kGuard, std::numeric_limits<float>::quiet_NaN());
  std::copy(values.begin(), values.end(), out.begin() + static_cast<std::ptrdiff_t>(kGuard));
  return out;
}

inline std::vector<gpgpu::blas::Dims> sizes() {
  return {{1, 1, 1}, {1, 200, 1}, {1, 1, 300}, {17, 103, 33}, {64, 64, 16}, {65, 63, 17}, {130, 70, 129}, {257, 129, 40}};
}

/// The shape's promises: positive sizes, kThreads blocks of thread_m x thread_n covering the block's
/// tile exactly, within the register budget.
inline ::testing::AssertionResult shape_is_valid(const TileShape& s) {
  if (s.block_m <= 0 || s.block_n <= 0 || s.step_k <= 0 || s.thread_m <= 0 || s.thread_n <= 0)
    return ::testing::AssertionFailure() << "every size of the tile shape must be positive";
  if (s.block_m * s.block_n != kThreads * s.thread_m * s.thread_n)
    return ::testing::AssertionFailure() << "block_m x block_n = " << s.block_m * s.block_n << " is not " << kThreads
                                         << " threads of thread_m x thread_n = " << s.thread_m * s.thread_n;
  if (s.thread_m * s.thread_n > kMaxAccumulators)
    return ::testing::AssertionFailure() << s.thread_m * s.thread_n << " accumulators per thread, over the budget of "
                                         << kMaxAccumulators;
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult within_bound(const Multiply& multiply, const gpgpu::blas::Dims& d) {
  const auto& [ops, ref] = gpgpu::blas::checks::problem(d, gpgpu::blas::ElementType::f32);
  const gpgpu::Verification v = gpgpu::blas::compare(multiply(ops), ref, gpgpu::blas::Arithmetic::fp32);
  if (v.pass) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << d.str() << ": " << v.summary();
}

}  // namespace ex10::checks
