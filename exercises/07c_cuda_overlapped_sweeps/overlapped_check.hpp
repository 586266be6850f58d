/// @file overlapped_check.hpp
/// @brief What exercise 07c's two checks share (host code): the launches of a run, the comparison
/// bit for bit, and the unknowns of a pitched iterate whose ghost rows and padding must still be zero.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/jacobi/layouts.hpp"

namespace ex07c::check {

/// The sweeps of each launch of a run of `iters` sweeps at `sweeps` per launch: as many whole
/// launches as fit, then one launch of the remainder (chapter 07c's host code does the same).
inline std::vector<int> launches(int iters, int sweeps) {
  std::vector<int> s;
  for (int done = 0; done < iters; done += s.back()) s.push_back(std::min(sweeps, iters - done));
  return s;
}

/// Whether `got` holds the floats of `want`, bit for bit (NaN included: a NaN is never right here).
inline ::testing::AssertionResult same_bits(std::span<const float> got, std::span<const float> want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << got.size() << " values, not " << want.size();
  for (std::size_t k = 0; k < got.size(); ++k)
    if (std::memcmp(&got[k], &want[k], sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "unknown " << k << " is " << got[k] << ", 07b's symmetric kernel gives "
                                           << want[k] << " (not the same bits)";
  return ::testing::AssertionSuccess();
}

/// The nx*ny unknowns of a pitched iterate given whole (its ghost rows, rows of `pitch` floats); a
/// ghost or padding element that is not zero fails the test that asks.
inline std::vector<float> unknowns(std::span<const float> whole, const gpgpu::jacobi::Grid& g, int pitch,
                                   const std::string& what) {
  std::vector<float> out;
  out.reserve(static_cast<std::size_t>(g.nodes()));
  std::size_t wrong = 0, first = 0;
  for (std::size_t k = 0; k < whole.size(); ++k) {
    const int row = static_cast<int>(k) / pitch - gpgpu::jacobi::kPitchedGhostRows, col = static_cast<int>(k) % pitch;
    if (row >= 0 && row < g.ny && col < g.nx)
      out.push_back(whole[k]);
    else if (whole[k] != 0.0f && wrong++ == 0)
      first = k;
  }
  if (wrong > 0)
    ADD_FAILURE() << what << ": " << wrong << " ghost or padding elements are not 0, the first at row "
                  << static_cast<int>(first) / pitch - gpgpu::jacobi::kPitchedGhostRows << ", column "
                  << static_cast<int>(first) % pitch << ": " << whole[first];
  return out;
}

}  // namespace ex07c::check
