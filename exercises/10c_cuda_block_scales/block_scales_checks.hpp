/// @file block_scales_checks.hpp
/// @brief What both checks of exercise 10c compare: the matrices, their blocks, and the scale each
/// block must get, by the rule stated the plain way (double the smallest scale until the block fits),
/// which gives what chapter 10c's gpgpu::blas::e4m3_block_scale gives by frexp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>


namespace ex10c::checks {

/// The scale of a block whose largest |x| is amax, found by search: from 2^-126 up, doubled until
/// amax / s <= 448 (exact: dividing by a power of two only moves the exponent); 1 for amax = 0.
inline float reference_scale(float amax) {
  if (!(amax > 0)) return 1.0f;
  float s = std::ldexp(1.0f, -126);
  while (amax / s > 448.0f) s *= 2.0f;
  return s;
}

/// A matrix and the blocks its scales are taken over.
struct Case {
  long long rows, cols, block_rows, block_cols;
  [[nodiscard]] long long row_blocks() const { return (rows + block_rows - 1) / block_rows; }
  [[nodiscard]] long long col_blocks() const { return (cols + block_cols - 1) / block_cols; }
  [[nodiscard]] std::string name() const {  // a test's name
    return std::to_string(rows) + "x" + std::to_string(cols) + "_blocks_" + std::to_string(block_rows) + "x" + std::to_string(block_cols);
  }
  [[nodiscard]] std::string str() const {
    return std::to_string(rows) + "x" + std::to_string(cols) + " in blocks of " + std::to_string(block_rows) + "x" +
           std::to_string(block_cols);
  }
};

inline void PrintTo(const Case& c, std::ostream* os) { *os << c.str(); }

/// Chapter 10c's two layouts (A's 1 x 128 blocks, B's 128 x 128) at sizes that leave partial blocks
/// both ways, one element, small blocks, and blocks wider than the kThreads threads of a CUDA block
/// (every thread has columns to read, some two).
inline std::vector<Case> cases() {
  return {{5, 300, 1, 128},   {300, 257, 128, 128}, {1, 1, 128, 128},  {129, 129, 128, 128},
          {3, 1000, 1, 128},  {70, 40, 16, 8},      {4, 1100, 1, 512}, {40, 700, 16, 300}};
}

/// The matrix of a case: values of both signs, each block at a magnitude of its own (2^-40 ... 2^40,
/// so that a scale taken over another block, or over the whole matrix, is wrong), the largest |x|
/// of every block at a position that moves with the block (its last row and column for some, so
/// that a kernel that reads part of a block misses it); block 0 of the 128 x 128 cases all zero
/// (scale 1); some blocks' largest value exactly 448 · 2^j or just above it (the two sides of the
/// rule's choice between e - 9 and e - 8).
inline std::vector<float> matrix(const Case& c) {
  std::vector<float> x(static_cast<std::size_t>(c.rows * c.cols));
  std::uint32_t state = 2024u + static_cast<std::uint32_t>(c.rows * 131 + c.cols);
  const auto uniform = [&] {  // in [-1, 1)
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<std::int32_t>(state)) * std::ldexp(1.0f, -31);
  };
  for (long long br = 0; br < c.row_blocks(); ++br)
    for (long long bc = 0; bc < c.col_blocks(); ++bc) {
      const long long b = br * c.col_blocks() + bc;
      const int exponent = static_cast<int>((b * 37) % 81) - 40;
      const long long r0 = br * c.block_rows, c0 = bc * c.block_cols;
      const long long r1 = std::min(r0 + c.block_rows, c.rows), c1 = std::min(c0 + c.block_cols, c.cols);
      for (long long r = r0; r < r1; ++r)
        for (long long k = c0; k < c1; ++k) x[static_cast<std::size_t>(r * c.cols + k)] = std::ldexp(uniform(), exponent - 1);
      // The block's largest |x|: at its last element, its first, or one in its middle, by block.
      const long long n = (r1 - r0) * (c1 - c0), at = b % 3 == 0 ? n - 1 : b % 3 == 1 ? 0 : n / 2;
      const long long r = r0 + at / (c1 - c0), k = c0 + at % (c1 - c0);
      float largest = std::ldexp(2.0f, exponent);
      if (b % 4 == 1) largest = std::ldexp(448.0f, exponent - 9);                   // exactly 448 · 2^j
      if (b % 4 == 2) largest = std::nextafter(std::ldexp(448.0f, exponent - 9), 1e30f);  // just above it
      x[static_cast<std::size_t>(r * c.cols + k)] = (b % 2 == 0 ? -1.0f : 1.0f) * largest;
      if (b == 0 && c.block_rows == 128)
        for (long long rr = r0; rr < r1; ++rr)
          for (long long kk = c0; kk < c1; ++kk) x[static_cast<std::size_t>(rr * c.cols + kk)] = 0.0f;
    }
  return x;
}

/// Each block's scale as the host computes it: e4m3_block_scale of the block's largest |x|.
inline std::vector<float> expected_scales(const Case& c, const std::vector<float>& x) {
  std::vector<float> s;
  for (long long br = 0; br < c.row_blocks(); ++br)
    for (long long bc = 0; bc < c.col_blocks(); ++bc) {
      float amax = 0;
      for (long long r = br * c.block_rows; r < std::min((br + 1) * c.block_rows, c.rows); ++r)
        for (long long k = bc * c.block_cols; k < std::min((bc + 1) * c.block_cols, c.cols); ++k)
          amax = std::max(amax, std::abs(x[static_cast<std::size_t>(r * c.cols + k)]));
      s.push_back(reference_scale(amax));
    }
  return s;
}

/// The largest values e4m3_scale_of is checked on: zero, the smallest floats (where the 2^-126 floor
/// holds), 448 · 2^j and its neighbours, powers of two and values in between, up to FLT_MAX.
inline std::vector<float> amax_values() {
  std::vector<float> v{0.0f, std::ldexp(1.0f, -149), std::ldexp(1.0f, -140), std::ldexp(1.0f, -126), 1.0f, 448.0f,
                       3.4e38f};
  for (int j = -120; j <= 120; j += 7)
    for (const float m : {0.5f, 0.75f, 0.875f, 0.9f, 0.999f})
      for (const float x : {std::ldexp(m, j), std::nextafter(std::ldexp(m, j), 0.0f), std::nextafter(std::ldexp(m, j), 1e38f)})
        v.push_back(x);
  return v;
}

}  // namespace ex10c::checks
