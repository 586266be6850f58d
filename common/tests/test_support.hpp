// Helpers shared by the tests: random data and a dense direct solver for small grids.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "gpgpu/problem.hpp"

namespace gpgpu::testing {

/// Uniform random values in [lo, hi) from a fixed seed (reproducible, never all zeros).
inline std::vector<float> random_vector(std::int64_t n, unsigned seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& e : v) e = dist(rng);
  return v;
}

/// The matrix as a dense row-major N×N array (small grids only).
std::vector<double> dense_matrix(const Stencil9& A);

/// Solves A x = f by Cholesky factorisation of the dense matrix (A must be SPD; small grids only).
std::vector<double> direct_solve(const Stencil9& A, const std::vector<float>& f);

}  // namespace gpgpu::testing
