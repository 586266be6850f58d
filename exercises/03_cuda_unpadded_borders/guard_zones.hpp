/// @file guard_zones.hpp
/// @brief The checks' side of exercise 03 (GPU and CPU emulation alike): each iterate holds its nx*ny
/// unknowns between two guard zones of NaN. A read outside the grid multiplies NaN (0 × NaN is NaN)
/// and fails the comparison with the reference; a write outside the grid leaves a guard that is no
/// longer the NaN written there.
#pragma once
#include <cstdint>
#include <cstring>
#include <span>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/grid.hpp"

namespace ex03::checks {

/// Guard values on either side of the unknowns: more than a row and its diagonal neighbour.
inline std::size_t guard_length(const gpgpu::jacobi::Grid& g) { return 2 * static_cast<std::size_t>(g.nx) + 64; }

/// The bit pattern every guard holds (and the unknowns of an iterate not yet written): a quiet NaN.
inline constexpr std::uint32_t kGuardBits = 0xFFFFFFFFu;

/// Whether every value of `all` (guard, n unknowns, guard) outside the unknowns still holds kGuardBits.
inline ::testing::AssertionResult guards_untouched(std::span<const float> all, std::size_t guard, std::size_t n) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i >= guard && i < guard + n) continue;
    std::uint32_t bits = 0;
    std::memcpy(&bits, &all[i], sizeof bits);
    if (bits != kGuardBits)
      return ::testing::AssertionFailure() << "a write outside the grid, "
                                           << static_cast<long long>(i) - static_cast<long long>(guard)
                                           << " from unknown 0: " << all[i];
  }
  return ::testing::AssertionSuccess();
}

}  // namespace ex03::checks
