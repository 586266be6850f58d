// Chapter 09 (paper 003, sec. 6.4.1, Obr. 11): C = A + B, one thread per element, a 2D grid of
// 32 x 8 blocks. threadIdx.x walks along a row, so the 32 threads of a warp touch 32 neighbouring
// elements of each matrix: every load and the store of a warp is one contiguous run of memory
// (coalesced). Added to the printed kernel: the bounds a matrix of any shape needs, and the row
// loop for grids taller than gridDim.y allows.
#include "launchers.hpp"

#include <cstdint>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [add_rowmajor]
template <typename T>
__global__ void add_rowmajor(AddArgs<T> a) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // a warp: 32 neighbours in a row
  if (col >= a.cols) return;
  for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < a.rows; row += gridDim.y * blockDim.y) {
    const int i = row * a.cols + col;
    a.c[i] = a.a[i] + a.b[i];
  }
}
//! [add_rowmajor]

// The launch: blocks of 32 x 8 threads, a warp along a row; the grid covers the columns, and the
// rows up to gridDim.y's limit (the kernel's row loop does the rest).
constexpr int kAddRowmajorBlockX = 32, kAddRowmajorBlockY = 8;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape add_rowmajor_shape(int rows, int cols) {
  return {dim3(blocks_for(cols, kAddRowmajorBlockX), grid_y(blocks_for(rows, kAddRowmajorBlockY))),
          dim3(kAddRowmajorBlockX, kAddRowmajorBlockY)};
}

template <typename T>
void launch_add_rowmajor(const AddArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = add_rowmajor_shape(a.rows, a.cols);
  add_rowmajor<<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("add_rowmajor");
}
template void launch_add_rowmajor<float>(const AddArgs<float>&, cudaStream_t);
template void launch_add_rowmajor<double>(const AddArgs<double>&, cudaStream_t);
template void launch_add_rowmajor<std::int32_t>(const AddArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
