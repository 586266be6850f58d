/// @file swizzle_checks.hpp
/// @brief What both checks of exercise 09 ask of swizzled_column, on the host: every element of the
/// tile has a place of its own, and neither of the kernel's access patterns has a bank conflict.
///
/// The model of shared memory: 32 banks, each 4 bytes wide; the float at word address w sits in bank
/// w mod 32. A warp's 32 accesses are served in one pass unless two of them hit the same bank in
/// different words; then in as many passes as the most different words any one bank is asked for
/// (an "n-way conflict"). Element (r, c) of the tile lives at word r * kTile + swizzled_column(r, c).
#pragma once
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "transpose_swizzled.hpp"

namespace ex09::checks {

/// For every row, col -> swizzled_column(row, col) must be a permutation of 0 .. kTile-1.
inline ::testing::AssertionResult every_element_has_a_place_of_its_own() {
  for (int row = 0; row < kTile; ++row) {
    std::vector<int> seen(kTile, 0);
    for (int col = 0; col < kTile; ++col) {
      const int c = swizzled_column(row, col);
      if (c < 0 || c >= kTile)
        return ::testing::AssertionFailure() << "swizzled_column(" << row << ", " << col << ") = " << c << " lies outside the tile";
      if (seen[static_cast<std::size_t>(c)]++ > 0)
        return ::testing::AssertionFailure() << "row " << row << ": two elements share column " << c;
    }
  }
  return ::testing::AssertionSuccess();
}

/// The passes one warp needs for the 32 elements `element(t)`, t = 0..31, ({row, col} pairs).
template <typename Element>
int passes(Element element) {
  std::vector<std::set<int>> words(32);  // per bank, the different words asked for
  for (int t = 0; t < 32; ++t) {
    const auto [row, col] = element(t);
    const int word = row * kTile + swizzled_column(row, col);
    words[static_cast<std::size_t>(word % 32)].insert(word);
  }
  std::size_t most = 0;
  for (const auto& w : words) most = std::max(most, w.size());
  return static_cast<int>(most);
}

struct RowCol {
  int row, col;
};

/// The store: a warp writes one column c of the tile, (0, c) ... (31, c); the load: one row r, (r, 0) ...
/// (r, 31). Every one of the 32 columns and rows must take one pass.
inline ::testing::AssertionResult no_bank_conflicts() {
  for (int i = 0; i < kTile; ++i) {
    const int store = passes([i](int t) { return RowCol{t, i}; });
    if (store != 1) return ::testing::AssertionFailure() << "storing column " << i << " of the tile: a " << store << "-way bank conflict";
    const int load = passes([i](int t) { return RowCol{i, t}; });
    if (load != 1) return ::testing::AssertionFailure() << "loading row " << i << " of the tile: a " << load << "-way bank conflict";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace ex09::checks
