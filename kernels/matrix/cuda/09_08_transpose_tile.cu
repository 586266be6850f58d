// Chapter 09: 09_07_transpose_tile_as_printed.cu corrected. The load is the same (a tile of in,
// row by row, coalesced, stored into shared memory as its transpose); the store writes the tile
// to the mirrored place: block (bx, by) writes tile (by, bx) of out, so the roles of blockIdx.x
// and blockIdx.y swap. Now both the loads and the stores of a warp are contiguous runs of global
// memory; the stride moved into shared memory. Also: rectangular matrices, and tiles of 32 x 32
// (a warp is one tile row: 128 contiguous bytes of floats, the paper's 16 gave 64).
//
// Bank conflicts: shared memory is split into 32 banks, consecutive 4-byte words in consecutive
// banks; a warp's 32 accesses run in one pass only if they hit 32 different banks (or the same
// word). tile[lx][ly] for the 32 lx of a warp lies 32 words apart: all in one bank, so the store
// into shared memory takes 32 passes (a 32-way conflict). 09_09_transpose_tile_padded.cu fixes that.
#include "launchers.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_tile]
template <typename T, int Tile>
__global__ void transpose_tile(TransposeArgs<T> a) {
  __shared__ T tile[Tile][Tile];
  const int gx = blockIdx.x * blockDim.x + threadIdx.x;  // column of in
  const int gy = blockIdx.y * blockDim.y + threadIdx.y;  // row of in
  const int lx = threadIdx.x, ly = threadIdx.y;
  if (gx < a.cols && gy < a.rows) tile[lx][ly] = a.in[gy * a.cols + gx];
  __syncthreads();
  const int ox = blockIdx.y * blockDim.y + lx;  // block indices swapped: column of out = row of in
  const int oy = blockIdx.x * blockDim.x + ly;  // row of out = column of in
  if (ox < a.rows && oy < a.cols) a.out[oy * a.rows + ox] = tile[ly][lx];
}
//! [transpose_tile]

// The launch: tiles of 32 x 32 (a warp reads or writes one tile row: 128 contiguous bytes of
// floats), a block of 32 x 32 threads per tile (no row loop).
constexpr int kTransposeTile = 32;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape transpose_tile_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kTransposeTile), blocks_for(rows, kTransposeTile)), dim3(kTransposeTile, kTransposeTile)};
}

template <typename T>
void launch_transpose_tile(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_tile_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("transpose_tile: more block rows than gridDim.y allows");
  transpose_tile<T, kTransposeTile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tile");
}
template void launch_transpose_tile<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_tile<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_tile<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
