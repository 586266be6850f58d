// Chapter 09 (paper 003, sec. 6.5.2, Obr. 20): the paper's shared-memory transpose, as printed.
// Each 16 x 16 block loads its tile of the n x n matrix row by row (coalesced) and stores it
// transposed into shared memory (locA[lx][ly]), waits, and writes locA[ly][lx] back to the same
// place of the output. The block indices are not swapped, so each tile is transposed where it
// stands: tile (bx, by) of the result holds the transpose of tile (bx, by) of the input, where it
// should hold the transpose of tile (by, bx). That is right only on the diagonal tiles, i.e. for
// the whole matrix when n <= 16. (The printed text also spells threadIdx "thredIdx".)
// Kept, with the bounds check it lacks, to show the test that catches it: the variant runs only
// when named, and fails its verification for every n > 16.
#include "launchers.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_tile_as_printed]
template <typename T, int Tile>
__global__ void transpose_tile_as_printed(TransposeArgs<T> a) {
  __shared__ T tile[Tile][Tile];
  const int gx = blockIdx.x * blockDim.x + threadIdx.x;  // column of in
  const int gy = blockIdx.y * blockDim.y + threadIdx.y;  // row of in
  const int lx = threadIdx.x, ly = threadIdx.y;
  const int n = a.cols;  // one width, wA: square matrices (and the paper calls the tile locA)
  if (gx < n && gy < n) tile[lx][ly] = a.in[gy * n + gx];  // the bounds are not in the paper
  __syncthreads();
  if (gx < n && gy < n) a.out[gy * n + gx] = tile[ly][lx];  // the same block position: each tile stays where it is
}
//! [transpose_tile_as_printed]

// The launch: Obr. 20's TILE_SIZE 16, blocks of 16 x 16 threads, one block per tile (no row loop).
constexpr int kPaperTransposeTile = 16;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape transpose_tile_as_printed_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kPaperTransposeTile), blocks_for(rows, kPaperTransposeTile)),
          dim3(kPaperTransposeTile, kPaperTransposeTile)};
}

template <typename T>
void launch_transpose_tile_as_printed(const TransposeArgs<T>& a, cudaStream_t stream) {
  if (a.rows != a.cols) throw std::invalid_argument("transpose_tile_as_printed: the printed kernel is for square matrices");
  const LaunchShape s = transpose_tile_as_printed_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("transpose_tile_as_printed: more block rows than gridDim.y allows");
  transpose_tile_as_printed<T, kPaperTransposeTile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tile_as_printed");
}
template void launch_transpose_tile_as_printed<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_tile_as_printed<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_tile_as_printed<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
