/// @file gemm_register_block.hpp
/// @brief Exercise 10: C = A·B with a 4 x 4 block of C per thread, for any m, n, k.
#pragma once

namespace ex10 {

/// Edge of the tile of C one block computes.
inline constexpr int kTile = 64;
/// Columns of A (rows of B) per step through k: the tiles in shared memory are kTile x kStep and
/// kStep x kTile.
inline constexpr int kStep = 16;
/// Edge of the block of C one thread computes, in registers.
inline constexpr int kThreadTile = 4;
/// Threads per block: (kTile / kThreadTile)² = 256.
inline constexpr int kThreads = (kTile / kThreadTile) * (kTile / kThreadTile);

/// C (m x n) = A (m x k) · B (k x n), all row-major float in device memory: a grid of
/// ceil(n / kTile) x ceil(m / kTile) blocks of kThreads threads (one-dimensional), block (bx, by)
/// computing rows by*kTile ... and columns bx*kTile ... of C. Every element of C inside the matrix is
/// written, none outside it; no element of A or B outside its matrix is read. Launches on the
/// default stream and checks the launch.
void launch_gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k);

}  // namespace ex10
