/// @file checks.hpp
/// @brief What every Jacobi test and exercise check shares: a random initial guess and the
/// comparison of a result with the CPU double-precision reference.
#pragma once
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/harness/random.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::jacobi::checks {

/// n values uniform in [lo, hi) from a fixed seed. The default range, ±10 mV, is the scale of the
/// solution, so a random initial guess is a realistic one.
inline std::vector<float> random_guess(std::int64_t n, unsigned seed, float lo = -10.0f, float hi = 10.0f) {
  return harness::random_values<float>(n, seed, lo, hi);
}

/// Passes when `got` (nx*ny values after `iters` iterations from x0 with ω = kDefaultOmega) matches
/// the double-precision reference within `tolerance` (default: jacobi_tolerance(iters)).
inline ::testing::AssertionResult matches_reference(std::span<const float> got, const LinearSystem& sys,
                                                    std::span<const float> x0, int iters, double tolerance = 0) {
  if (static_cast<std::int64_t>(got.size()) != sys.grid.nodes())
    return ::testing::AssertionFailure() << "got " << got.size() << " values for " << sys.grid.nodes() << " unknowns";
  const std::vector<double> ref = jacobi_reference(sys, x0, iters, kDefaultOmega);
  const Verification v = compare_normwise(got, ref, tolerance > 0 ? tolerance : jacobi_tolerance(iters));
  if (v.pass) return ::testing::AssertionSuccess() << v.summary();
  return ::testing::AssertionFailure() << sys.grid.str() << ", " << iters << " iterations: " << v.summary();
}

/// The parameter of most kernel checks: a grid, an iteration count and the block size to launch.
struct JacobiCase {
  Grid grid;
  int iters = 1;
  int block = 0;
};

/// How GoogleTest prints a JacobiCase in a failure message ("17x1023, 7 iterations, block 100").
inline void PrintTo(const JacobiCase& c, std::ostream* os) {
  *os << c.grid.str() << ", " << c.iters << " iterations, block " << c.block;
}

/// Test-name suffix of a JacobiCase: "17x1023_it7_b100".
inline std::string case_name(const ::testing::TestParamInfo<JacobiCase>& info) {
  const JacobiCase& c = info.param;
  std::string name = c.grid.str();
  name += "_it" + std::to_string(c.iters);
  name += "_b" + std::to_string(c.block);
  return name;
}

}  // namespace gpgpu::jacobi::checks
