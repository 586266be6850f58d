/// @file aligned_double.hpp
/// @brief Exercise 04: chapter 04's aligned layout for 8-byte words. In double precision a 128-byte
/// line holds 16 values, not 32, so the ghost offset that aligns unknown 0 changes.
#pragma once
#include <cstdint>

namespace ex04 {

/// The smallest multiple of (line_bytes / word_bytes) elements that is at least nx + 1: the ghost
/// offset that puts unknown 0 at the start of a line. line_bytes is a multiple of word_bytes.
std::int64_t aligned_offset_elements(std::int64_t nx, int line_bytes, int word_bytes);

/// One iteration's data, all double: nine diagonals of nx*ny values (gpgpu::jacobi::Dir order), f, and x /
/// x_new with `offset` ghost values in front of unknown 0 and at least nx+1 behind (all zero).
struct AlignedDoubleArgs {
  const double* diag[9];
  const double* f;
  const double* x;
  double* x_new;
  int nx;
  int nodes;
  int offset;
  double omega;
};

/// Launches one iteration x_new = (1−ω)x + ωD⁻¹(f − (L+U)x) in double precision.
void launch_jacobi_aligned_double(const AlignedDoubleArgs& a, int block);

}  // namespace ex04
