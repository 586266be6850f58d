// Chapter 09: 09_03_add_shared_paper.cu with the global index corrected (block times block size plus
// thread, as in 09_01_add_rowmajor.cu); everything else, the staging through shared memory and both
// barriers, is unchanged. Now it is correct at every size, and comparing it with
// 09_01_add_rowmajor.cu measures what the staging costs by itself: nothing is reused, so shared
// memory can only add work.
#include "launchers.hpp"

#include <cstdint>
#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [add_shared]
template <typename T, int Tile>
__global__ void add_shared(AddArgs<T> a) {
  __shared__ T loc_a[Tile][Tile];
  __shared__ T loc_b[Tile][Tile];
  const int gx = blockIdx.x * blockDim.x + threadIdx.x;
  const int gy = blockIdx.y * blockDim.y + threadIdx.y;
  const int lx = threadIdx.x, ly = threadIdx.y;
  const bool inside = gx < a.cols && gy < a.rows;
  if (inside) {
    loc_a[ly][lx] = a.a[gy * a.cols + gx];
    loc_b[ly][lx] = a.b[gy * a.cols + gx];
  }
  __syncthreads();
  const T sum = inside ? loc_a[ly][lx] + loc_b[ly][lx] : T(0);
  __syncthreads();
  if (inside) a.c[gy * a.cols + gx] = sum;
}
//! [add_shared]

// The launch: the paper's tile of 32 x 32, one block per tile (no row loop).
constexpr int kAddSharedTile = 32;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape add_shared_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kAddSharedTile), blocks_for(rows, kAddSharedTile)), dim3(kAddSharedTile, kAddSharedTile)};
}

template <typename T>
void launch_add_shared(const AddArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = add_shared_shape(a.rows, a.cols);
  if (s.grid.y > kMaxGridY) throw std::length_error("add_shared: more block rows than gridDim.y allows");
  add_shared<T, kAddSharedTile><<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("add_shared");
}
template void launch_add_shared<float>(const AddArgs<float>&, cudaStream_t);
template void launch_add_shared<double>(const AddArgs<double>&, cudaStream_t);
template void launch_add_shared<std::int32_t>(const AddArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
