/// @file shared_halo.hpp
/// @brief Exercise 06: chapter 06's shared-memory kernel for 2D blocks. A block of bx × by threads
/// updates a tile of bx columns and by rows; it stages the (bx+2) × (by+2) x values the tile
/// touches (the halo: one column and one row on every side) in shared memory.
#pragma once

namespace ex06 {

/// Pitched arrays as in chapter 05: each pointer points at element (0, 0), element (i, j) is at
/// [j * pitch + i], and two zero ghost rows lie above and below the grid (padding columns zero).
struct SharedArgs {
  const float* diag[9];  ///< gpgpu::jacobi::Dir order SW, S, SE, W, C, E, NW, N, NE
  const float* f;
  const float* x;
  float* x_new;
  int nx;
  int ny;
  int pitch;
  float omega;
};

/// Launches one iteration with blocks of block_x × block_y threads (at most 1024 in all).
void launch_jacobi_shared_2d(const SharedArgs& a, int block_x, int block_y);

}  // namespace ex06
