/// @file symmetric_kernel.hpp
/// @brief Exercise 07b: weighted Jacobi on the GPU reading only the main diagonal and the four upper
/// diagonals of the symmetric matrix (the paper's future work), one point per thread on chapter
/// 05's pitched layout.
#pragma once

namespace ex07b {

/// Pitched arrays as in chapter 05: each pointer points at element (0, 0), element (i, j) is at
/// [j * pitch + i], two zero ghost rows lie above and below the grid, padding columns are zero.
struct SymmetricArgs {
  const float* c;   ///< main diagonal
  const float* e;   ///< coupling with (i+1, j)
  const float* nw;  ///< coupling with (i-1, j+1)
  const float* n;   ///< coupling with (i, j+1)
  const float* ne;  ///< coupling with (i+1, j+1)
  const float* f;
  const float* x;
  float* x_new;
  int nx;
  int ny;
  int pitch;
  float omega;
};

/// Launches one iteration on a 2D grid of 1D blocks of `block` threads (blockIdx.y = row).
void launch_jacobi_symmetric(const SymmetricArgs& a, int block);

}  // namespace ex07b
