/// @file guard_zones.hpp
/// @brief The checks' side of exercise 03 (GPU and CPU emulation alike): each iterate holds its nx*ny
/// unknowns between two guard zones of NaN. A read outside the grid multiplies NaN (0 × NaN is NaN)
/// and fails the comparison with the reference; a write outside the grid leaves a guard that is no
/// longer the NaN written there (gpgpu/jacobi/guard_zones.hpp, shared with exercise 04). The two
/// iterates' NaNs differ in payload (iterate_guard_nan).
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/jacobi/guard_zones.hpp"

namespace ex03::checks {

/// Guard values on either side of the unknowns: more than a row and its diagonal neighbour.
inline std::size_t guard_length(const gpgpu::jacobi::Grid& g) { return 2 * static_cast<std::size_t>(g.nx) + 64; }

/// Whether every value of iterate `b`'s `all` (guard, n unknowns, guard) outside the unknowns still
/// holds its guard NaN (iterate_guard_nan: also what its unknowns hold before they are written).
inline ::testing::AssertionResult guards_untouched(std::span<const float> all, std::size_t guard, std::size_t n,
                                                   std::size_t b) {
  const std::vector<float> was(all.size(), gpgpu::jacobi::checks::iterate_guard_nan<float>(b));
  return gpgpu::jacobi::checks::untouched_outside(all, std::span<const float>(was), guard, n);
}

}  // namespace ex03::checks
