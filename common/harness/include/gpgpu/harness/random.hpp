/// @file random.hpp
/// @brief Reproducible random test data with both signs, for every test and exercise check.
#pragma once
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace gpgpu::harness {

/// n values uniform in [lo, hi) (integers: [lo, hi]) from a fixed seed: reproducible, both signs by
/// default, never all zeros.
template <typename T = float>
std::vector<T> random_values(std::int64_t n, unsigned seed, T lo = T(-10), T hi = T(10)) {
  std::mt19937 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<T> dist(lo, hi);
    for (T& e : v) e = dist(rng);
  } else {
    std::uniform_real_distribution<T> dist(lo, hi);
    for (T& e : v) e = dist(rng);
  }
  return v;
}

}  // namespace gpgpu::harness
