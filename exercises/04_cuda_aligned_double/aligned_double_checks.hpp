/// @file aligned_double_checks.hpp
/// @brief The checks' side of exercise 04, on the GPU and on the CPU emulation alike: the offset's
/// three properties, and the comparison with the double-precision reference to near double rounding.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aligned_double.hpp"

namespace ex04::checks {

/// aligned_offset_elements is a multiple of the words per line, at least nx + 1, and the smallest
/// such, for 4- and 8-byte words, 64- and 128-byte lines and widths around every power of two.
inline ::testing::AssertionResult offset_is_the_smallest_aligned_one_past_the_ghosts() {
  for (int line : {64, 128})
    for (int word : {4, 8})
      for (std::int64_t nx : {1, 2, 7, 15, 16, 17, 31, 32, 33, 511, 512, 513, 1023, 4097}) {
        const std::int64_t per_line = line / word;
        const std::int64_t off = ex04::aligned_offset_elements(nx, line, word);
        const auto where = [&] { return "nx " + std::to_string(nx) + ", line " + std::to_string(line) + ", word " + std::to_string(word); };
        if (off % per_line != 0) return ::testing::AssertionFailure() << where() << ": offset " << off << " is not line-aligned";
        if (off < nx + 1) return ::testing::AssertionFailure() << where() << ": offset " << off << " < nx + 1";
        if (off - per_line >= nx + 1)
          return ::testing::AssertionFailure() << where() << ": offset " << off << ", a smaller aligned offset exists";
      }
  return ::testing::AssertionSuccess();
}

/// Whether `got` matches the double reference to near double rounding; fails on an unknown that was
/// not written. Same arithmetic in double, only the order of the additions (and fused multiply-adds)
/// differs: the error grows like the float tolerance with u = 2^-53 instead of 2^-24.
inline ::testing::AssertionResult near_double_rounding(const std::vector<double>& got, const std::vector<double>& ref,
                                                       int iters) {
  const double tolerance = 4.0 * 0x1p-53 * (iters + 16) * 16.0;
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    if (!std::isfinite(got[k])) return ::testing::AssertionFailure() << "unknown " << k << " was not written";
    worst = std::max(worst, std::abs(got[k] - ref[k]));
    scale = std::max(scale, std::abs(ref[k]));
  }
  if (worst / scale <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "relative error " << worst / scale << " > " << tolerance
                                       << " (float arithmetic somewhere gives about 1e-7; a wrong ω far more)";
}

}  // namespace ex04::checks
