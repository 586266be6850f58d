// Exercise 07c skeleton: write sweep_on_chip, marked TODO(exercise). The provided kernel
// (overlapped_kernel.cu) has loaded a tile of the grid and its halo into shared memory and calls it;
// the checks (check_overlapped_sweeps.cpp on the GPU, check_overlapped_sweeps_emulated.cpp on the CPU)
// fail until it is right.
#pragma once
#include "overlapped_sweeps.hpp"

namespace ex07c {

/// Runs tile.sweeps weighted Jacobi sweeps (relaxation factor omega) on the loaded region, ping-ponging
/// between the loaded iterate on_chip.x() and `other` (as many floats as a plane, NaN on entry), and
/// stores the tile's nodes after the last sweep to out.x_new. Every thread of the block calls it;
/// threadIdx and blockDim say which thread this is. The provided kernel has a barrier before the call
/// and after it.
__device__ inline void sweep_on_chip(const Planes& on_chip, float* other, const OnChipTile& tile, float omega,
                                     const TileOutput& out) {
  // TODO(exercise): the sweeps on chip, each node updated with symmetric_update_at (07b's arithmetic,
  // so that the result is 07b_04_symmetric.cu's to the bit), and the last sweep's store.
  (void)on_chip;
  (void)other;
  (void)tile;
  (void)omega;
  (void)out;
}

}  // namespace ex07c
