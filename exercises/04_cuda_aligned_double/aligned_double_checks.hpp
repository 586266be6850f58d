/// @file aligned_double_checks.hpp
/// @brief The checks' side of exercise 04, on the GPU and on the CPU emulation alike: the offset's
/// three properties, the iterates between guard zones, and the comparison with the double-precision
/// reference to near double rounding.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aligned_double.hpp"
#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/jacobi/guard_zones.hpp"
#include "gpgpu/jacobi/layouts.hpp"

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

/// Guard values on either side of an iterate's ghost-padded array: more than a block, so that the
/// threads of the last block past the last unknown land in the guard (and neither write past the
/// array nor read past it), and a multiple of 16 doubles, so that unknown 0 still starts a 128-byte
/// line.
inline std::size_t guard_length(int block) {
  return (static_cast<std::size_t>(block) + 64 + 15) / 16 * 16;
}

/// The two iterates before the first iteration, each [guard | offset ghosts, nx*ny unknowns,
/// trailing ghosts | guard]: x with the initial guess, x_new with NaN unknowns; zero ghosts; guards
/// of NaN with a payload of each iterate's own (gpgpu/jacobi/guard_zones.hpp says why). What lies
/// outside the unknowns must be the same after the run.
inline std::array<std::vector<double>, 2> guarded_iterates(const gpgpu::jacobi::Grid& g, std::span<const float> x0,
                                                           std::int64_t offset, std::size_t guard) {
  const std::vector<double> wide(x0.begin(), x0.end());
  const std::vector<double> padded = gpgpu::jacobi::make_ghost_padded<double>(g, wide, offset, 16).data;
  std::array<std::vector<double>, 2> x;
  for (std::size_t b = 0; b < 2; ++b) {
    const double nan = gpgpu::jacobi::checks::iterate_guard_nan<double>(b);
    x[b].assign(guard + padded.size() + guard, nan);
    if (b == 0) {
      std::copy(padded.begin(), padded.end(), x[b].begin() + static_cast<std::ptrdiff_t>(guard));
    } else {
      std::fill_n(x[b].begin() + static_cast<std::ptrdiff_t>(guard), padded.size(), 0.0);
      std::fill_n(x[b].begin() + static_cast<std::ptrdiff_t>(guard) + offset, g.nodes(), nan);
    }
  }
  return x;
}

}  // namespace ex04::checks
