// Chapter 09 (paper 003, sec. 6.4.2, Obr. 13): the paper's "optimised" add, as printed. Each block
// of Tile x Tile threads first copies its elements of A and B into shared memory, waits, adds them
// there, waits again and stores. Two things are wrong with it:
//  - the global index swaps block and thread: gx = blockIdx.x + blockDim.x * threadIdx.x instead of
//    blockIdx.x * blockDim.x + threadIdx.x. That visits every column exactly once only when
//    gridDim.x == blockDim.x (n = 1024 for 32 x 32 blocks). For 993 <= n <= 1025 it visits some
//    columns twice, which an add survives (the same sum is written twice); for every other n but 1
//    it never reaches some columns (rows alike), and of the paper's sizes 16 ... 4096 only 1024 was
//    right. Consecutive threads are also blockDim.x elements apart, so no warp's access is contiguous;
//  - the staging itself cannot help: each element is read once and used once, so shared memory
//    only adds a store, a load and two barriers on the way (09_04_add_shared.cu measures that alone).
// Kept, with the bounds check the printed kernel lacks (without it the wrong index also writes
// past the matrix), to show the test that catches it: the variant runs only when named.
#include "launchers.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [add_shared_paper]
template <typename T, int Tile>
__global__ void add_shared_paper(AddArgs<T> a) {
  __shared__ T loc_a[Tile][Tile];
  __shared__ T loc_b[Tile][Tile];
  const int gx = blockIdx.x + blockDim.x * threadIdx.x;  // as printed: a permutation only if gridDim == blockDim
  const int gy = blockIdx.y + blockDim.y * threadIdx.y;
  const int lx = threadIdx.x, ly = threadIdx.y;
  const bool inside = gx < a.cols && gy < a.rows;  // not in the paper
  if (inside) {
    loc_a[ly][lx] = a.a[gy * a.cols + gx];
    loc_b[ly][lx] = a.b[gy * a.cols + gx];
  }
  __syncthreads();
  const T sum = inside ? loc_a[ly][lx] + loc_b[ly][lx] : T(0);
  __syncthreads();
  if (inside) a.c[gy * a.cols + gx] = sum;
}
//! [add_shared_paper]

// The launch: Obr. 13's TILE_SIZE 32, blocks of 32 x 32 threads, one block per tile (no row loop).
constexpr int kPaperAddTile = 32;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape add_shared_paper_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kPaperAddTile), blocks_for(rows, kPaperAddTile)), dim3(kPaperAddTile, kPaperAddTile)};
}

template <typename T>
void launch_add_shared_paper(const AddArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = add_shared_paper_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("add_shared_paper: more block rows than gridDim.y allows");
  add_shared_paper<T, kPaperAddTile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("add_shared_paper");
}
template void launch_add_shared_paper<float>(const AddArgs<float>&, cudaStream_t);
template void launch_add_shared_paper<double>(const AddArgs<double>&, cudaStream_t);
template void launch_add_shared_paper<std::int32_t>(const AddArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
