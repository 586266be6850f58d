/// @file interleaved_rows.hpp
/// @brief Exercise 03: weighted Jacobi on the GPU with the interleaved-row layout of chapter 01
/// (paper Fig. 4): the nine coefficients of node k side by side at rows[9k .. 9k+8].
#pragma once

namespace ex03 {

/// One iteration's data. x and x_new use chapter 03's layout: nx+1 ghost elements in front of
/// unknown 0 (x[nx + 1 + k] is unknown k) and at least nx+1 behind, all ghosts zero.
struct InterleavedArgs {
  const float* rows;  ///< rows[9k + d]: coefficient of direction d (gpgpu::jacobi::Dir order SW..NE) of node k
  const float* f;     ///< nx*ny right-hand side values
  const float* x;
  float* x_new;
  int nx;
  int nodes;          ///< nx*ny
  float omega;
};

/// Launches one iteration x_new = (1−ω)x + ωD⁻¹(f − (L+U)x) with `block` threads per block.
void launch_jacobi_interleaved(const InterleavedArgs& a, int block);

}  // namespace ex03
