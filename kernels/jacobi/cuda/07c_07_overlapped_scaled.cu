// Chapter 07c, step 7: step 3 without the division in the sweeps. Every kernel so far divides by
// the diagonal c in every update, as 07b_04_symmetric.cu does, so that all of them compute its bits.
// An IEEE division by a value a warp does not know to be ordinary is about nine instructions (a
// reciprocal estimate, multiply-adds to correct it, a check and the branch to a slow path for the
// cases the estimate cannot handle), and in step 3 an update is 73. But c never changes: in a trip
// of s sweeps a node's division by c is done s times, and ω / c could be done once. Here the tile's
// load divides once per loaded node and stores w = ω / c in the c plane (load_quad with
// Diagonal::scaled, onchip_planes.hpp: zero outside the grid, by a select), and the update
// multiplies, (1 - ω) x_c + w (f - Σ a_k x_k) (scaled_update, symmetric_update.hpp, which counts
// the roundings: two on each path from f - Σ to the weighted correction, so the same error bound).
// The result is no longer 07b_04_symmetric's bit for bit; the tests hold it to the CPU reference's
// tolerance, and to a CPU emulation of the same arithmetic bit for bit. Everything else (tiles,
// loads, rows per step, the select outside the grid) is step 3's: the same tile body,
// overlapped_unrolled_tiles.hpp, and the same launch.
#include "launchers.hpp"

#include "overlapped_unrolled_tiles.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
template <int kWidth, int kRows>
__global__ void jacobi_overlapped_scaled(SymmetricArgs a, int sweeps, int tile_y) {
  // Step 3's tiles, in step 3's grid, with ω / c on chip in place of c.
  overlapped_unrolled_tiles<kWidth, kRows, IterateLoad::read_only, Diagonal::scaled>(
      a, sweeps, tile_y, blockIdx.y * gridDim.x + blockIdx.x, gridDim.x * gridDim.y);
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_07c_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_overlapped_scaled(const SymmetricArgs& a, int sweeps, TemporalTile tile, int rows_per_step,
                                     cudaStream_t stream) {
  const TilesKernel kernel =
      unrolled_instance(tile.x + 2 * halo_columns(sweeps), rows_per_step, "launch_jacobi_overlapped_scaled",
                        [](auto w, auto r) { return jacobi_overlapped_scaled<decltype(w)::value, decltype(r)::value>; });
  launch_tiles(kernel, "jacobi_overlapped_scaled", a, sweeps, tile, stream);
}
#endif

}  // namespace gpgpu::jacobi::cuda
