/// @file aligned_double.hpp
/// @brief Exercise 04: chapter 04's aligned layout when the iterate is double. The matrix and the
/// right-hand side stay the float arrays every chapter uses; x and x_new are double, so a 128-byte
/// line holds 16 of them, not 32, and the ghost offset that aligns unknown 0 changes.
#pragma once
#include <cstdint>

namespace ex04 {

/// The smallest multiple of (line_bytes / word_bytes) elements that is at least nx + 1: the ghost
/// offset that puts unknown 0 at the start of a line. line_bytes is a multiple of word_bytes.
std::int64_t aligned_offset_elements(std::int64_t nx, int line_bytes, int word_bytes);

/// One iteration's data: the nine diagonals (gpgpu::jacobi::Dir order: SW S SE W C E NW N NE) and
/// f as float arrays of nx*ny values, as the chapters store them; x and x_new as double, with
/// `offset` zero ghosts in front of unknown 0 and at least nx+1 behind.
struct MixedArgs {
  const float* diag[9];
  const float* f;
  const double* x;
  double* x_new;
  int nx;
  int nodes;   ///< nx*ny
  int offset;  ///< index of unknown 0 in x and x_new
  double omega;
};

/// Launches one iteration x_new = (1−ω)x + ωD⁻¹(f − (L+U)x) in blocks of `block` threads.
void launch_jacobi_mixed(const MixedArgs& a, int block);

}  // namespace ex04
