/// @file unpadded_borders.hpp
/// @brief Exercise 03: the simple kernel without the paper's padding. x holds exactly the nx*ny
/// unknowns, no ghost elements; the kernel must itself keep every read inside the grid.
#pragma once
#include "jacobi/cuda/jacobi_args.hpp"

namespace ex03 {

/// One iteration's data. The nine diagonals and f hold nx*ny values each (chapter 03's arrays:
/// diag[d][k] couples unknown k with its neighbour in direction d, zero where that neighbour is
/// outside the grid). x and x_new hold the nx*ny unknowns and nothing else: x[k] is unknown
/// k = j*nx + i. Reading x[-1] or x[nx*ny] is reading memory that is not x.
struct UnpaddedArgs {
  gpgpu::jacobi::cuda::Diagonals A;
  const float* f;
  const float* x;
  float* x_new;
  int nx;
  int ny;
  float omega;
};

/// Launches one iteration x_new = (1−ω)x + ωD⁻¹(f − (L+U)x) in blocks of `block` threads.
void launch_jacobi_unpadded(const UnpaddedArgs& a, int block);

}  // namespace ex03
