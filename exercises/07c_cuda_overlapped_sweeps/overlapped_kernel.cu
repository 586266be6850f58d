// Exercise 07c's kernel, given: chapter 07c's overlapped tile (kernels/jacobi/cuda/07c_01_overlapped.cu)
// up to the point where a block's tile and its halo of s rings are in shared memory. The s sweeps
// on chip are the function you write, sweep_on_chip (sweeps_on_chip.hpp); they receive the planes,
// not the arrays in global memory, so the coefficients, f and x of every sweep come from chip.
// The kernel fills the second on-chip iterate with NaN before the sweeps: a sweep that reads a value
// no earlier sweep wrote spreads NaN to the result instead of a leftover that may happen to be right.
#include "overlapped_launch.hpp"
#include "overlapped_sweeps.hpp"

#include <sweeps_on_chip.hpp>  // your file (exercises/ or solutions/: the include path decides)

#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "jacobi/cuda/block_shared.hpp"
#include "jacobi/cuda/launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex07c {

namespace jc = gpgpu::jacobi::cuda;

// 07c_01_overlapped.cu's block: a warp per on-chip row.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

namespace {

__global__ void overlapped_sweeps(SymmetricArgs a, int sweeps, int tile_x, int tile_y) {
  const int hx = jc::halo_columns(sweeps);  // s, rounded up to whole float4s
  const int lw = tile_x + 2 * hx;       // loaded width: a multiple of 4
  const int lh = tile_y + 2 * sweeps;   // loaded height
  const Planes on_chip = jc::planes_at(jc::block_shared(), lw * lh);
  float* const other = jc::block_shared() + jc::kStoredPlanes * lw * lh;  // the second on-chip iterate
  const int thread = threadIdx.y * blockDim.x + threadIdx.x, threads = blockDim.x * blockDim.y;
  const int col0 = blockIdx.x * tile_x - hx;  // grid column of on-chip column 0
  for (int j0 = blockIdx.y * tile_y; j0 < a.ny; j0 += gridDim.y * tile_y) {
    const int row0 = j0 - sweeps;  // grid row of on-chip row 0
    jc::load_tile(a, col0, row0, lw, lh, on_chip, lw);  // the tile and its halo, as 07c_01_overlapped.cu
    for (int m = thread; m < lw * lh; m += threads) other[m] = nanf("");
    __syncthreads();
    sweep_on_chip(on_chip, other, OnChipTile{sweeps, tile_x, tile_y, hx, lw, lh, col0, row0}, a.omega,
                  TileOutput{a.x_new, a.pitch, a.nx, a.ny});
    __syncthreads();  // the next tile's loads overwrite what the sweeps read
  }
}

}  // namespace

/// Shared memory of a launch: the seven planes and the second iterate.
std::size_t overlapped_shared_bytes(int sweeps, TemporalTile tile) {
  const auto hx = static_cast<std::size_t>(jc::halo_columns(sweeps));
  return (jc::kStoredPlanes + 1) * (tile.x + 2 * hx) * (tile.y + 2 * static_cast<std::size_t>(sweeps)) * sizeof(float);
}

#ifndef GPGPU_CUDA_EMULATION  // check_overlapped_sweeps_emulated.cpp runs the kernel above on the CPU
void launch_overlapped_sweeps(const SymmetricArgs& a, int sweeps, TemporalTile tile) {
  if (sweeps < 1 || tile.x < 4 || tile.x % 4 != 0 || tile.y < 1)
    throw std::invalid_argument("launch_overlapped_sweeps: s >= 1 and a tile of a multiple of 4 columns and >= 1 row");
  const std::size_t shared = ex07c::overlapped_shared_bytes(sweeps, tile);  // qualified: ADL finds 07c_01's too
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(overlapped_sweeps, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  const dim3 grid(jc::blocks_for(a.nx, tile.x), jc::grid_rows(jc::blocks_for(a.ny, tile.y)));
  overlapped_sweeps<<<grid, dim3(kBlockX, kBlockY), shared>>>(a, sweeps, tile.x, tile.y);
  GPGPU_CUDA_CHECK_LAUNCH("overlapped_sweeps (exercise 07c)");
}
#endif

}  // namespace ex07c
