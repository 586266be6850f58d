/// @file jacobi_check.hpp
/// @brief What the CUDA tests and the CUDA exercise checks share: random initial guesses and the
/// comparison of a GPU result with the CPU double-precision reference.
#pragma once
#include <random>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/problem.hpp"
#include "gpgpu/reference.hpp"
#include "gpgpu/spectral.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::cuda_check {

/// Values in [-10, 10) mV from a fixed seed: realistic, reproducible, never all zeros.
inline std::vector<float> random_guess(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& e : v) e = dist(rng);
  return v;
}

/// Passes when `got` (nx*ny values after `iters` iterations from x0 with ω = kDefaultOmega) matches
/// the double-precision reference within `tolerance` (default: jacobi_tolerance(iters)).
inline ::testing::AssertionResult matches_reference(std::span<const float> got, const LinearSystem& sys,
                                                    std::span<const float> x0, int iters, double tolerance = 0) {
  if (static_cast<std::int64_t>(got.size()) != sys.grid.nodes())
    return ::testing::AssertionFailure() << "got " << got.size() << " values for " << sys.grid.nodes() << " unknowns";
  const std::vector<double> ref = jacobi_reference(sys, x0, iters, kDefaultOmega);
  const Verification v = verify_solution(got, ref, tolerance > 0 ? tolerance : jacobi_tolerance(iters));
  if (v.pass) return ::testing::AssertionSuccess() << v.summary();
  return ::testing::AssertionFailure() << sys.grid.str() << ", " << iters << " iterations: " << v.summary();
}

}  // namespace gpgpu::cuda_check
