// Worked answer to exercise 07c: the s sweeps of chapter 07c's overlapped tile on chip. Sweep t
// (0-based) updates the tile grown by s-1-t rings: those nodes' neighbours were right after sweep t-1
// (sweep 0's are loaded), so what is right shrinks by a ring per sweep, and after s sweeps it is
// the tile. A barrier ends every sweep but the last (the kernel's own barrier follows that one): the
// next sweep reads what other threads wrote. Nodes outside the grid keep zero in the iterate written
// (their coefficients are zero, and the update there would divide 0 by 0). The last sweep stores the
// tile alone: the rings around it are other blocks' tiles. Chapter 07c's
// kernels/jacobi/cuda/07c_01_overlapped.cu does the same inside its kernel.
#pragma once
#include "overlapped_sweeps.hpp"

namespace ex07c {

__device__ inline void sweep_on_chip(const Planes& on_chip, float* other, const OnChipTile& tile, float omega,
                                     const TileOutput& out) {
  for (int t = 0; t < tile.sweeps; ++t) {
    const int ring = tile.sweeps - 1 - t;  // this sweep updates the tile and `ring` rings around it
    const float* from = t % 2 == 0 ? on_chip.x() : other;
    float* to = t % 2 == 0 ? other : on_chip.x();
    for (int r = tile.sweeps - ring + threadIdx.y; r < tile.sweeps + tile.tile_y + ring; r += blockDim.y)
      for (int col = tile.halo_x - ring + threadIdx.x; col < tile.halo_x + tile.tile_x + ring; col += blockDim.x) {
        const int i = tile.col0 + col, j = tile.row0 + r, m = r * tile.stride + col;
        const bool inside = out.in_grid(i, j);
        const float v = inside ? symmetric_update_at(on_chip.c(), on_chip.e(), on_chip.nw(), on_chip.n(), on_chip.ne(),
                                                     on_chip.f(), from, m, tile.stride, omega)
                               : 0.0f;
        if (ring > 0)
          to[m] = v;
        else if (inside)  // the last sweep: the tile itself, straight to memory
          out.x_new[static_cast<long long>(j) * out.pitch + i] = v;
      }
    if (ring > 0) __syncthreads();  // the next sweep reads this one's values
  }
}

}  // namespace ex07c
