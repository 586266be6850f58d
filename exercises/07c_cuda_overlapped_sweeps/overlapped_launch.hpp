/// @file overlapped_launch.hpp
/// @brief Exercise 07c, the host's side: one launch of the overlapped-tile kernel (overlapped_kernel.cu),
/// `sweeps` weighted Jacobi sweeps from a.x to a.x_new on chapter 07b's symmetric storage.
#pragma once
#include "jacobi/cuda/jacobi_args.hpp"

namespace ex07c {

using gpgpu::jacobi::cuda::SymmetricArgs;
using gpgpu::jacobi::cuda::TemporalTile;

/// A block per tile of tile.x (a multiple of 4) x tile.y nodes; throws where the tile's shared memory
/// is more than a block may have.
void launch_overlapped_sweeps(const SymmetricArgs& a, int sweeps, TemporalTile tile);

}  // namespace ex07c
