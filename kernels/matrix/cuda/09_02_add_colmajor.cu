// Chapter 09 (paper 003, sec. 6.4.2, Obr. 14-16): 09_01_add_rowmajor.cu with the roles of the two
// grid dimensions swapped. threadIdx.x now walks down a column, so the 32 threads of a warp touch
// elements `cols` apart: for a matrix wider than a few elements every thread's load is a memory
// transaction (a 32-byte sector) of its own, of which it uses 4 or 8 bytes. The paper measured this
// order more than 3x slower, and its OpenCL version slower than the CPU.
#include "launchers.hpp"

#include <cstdint>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [add_colmajor]
template <typename T>
__global__ void add_colmajor(AddArgs<T> a) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;  // a warp: 32 rows, `cols` elements apart
  if (row >= a.rows) return;
  for (int col = blockIdx.y * blockDim.y + threadIdx.y; col < a.cols; col += gridDim.y * blockDim.y) {
    const int i = row * a.cols + col;
    a.c[i] = a.a[i] + a.b[i];
  }
}
//! [add_colmajor]

// The launch: add_rowmajor's blocks of 32 x 8 threads, turned: a warp down a column; the grid
// covers the rows, and the columns up to gridDim.y's limit (the kernel's column loop does the rest).
constexpr int kAddColmajorBlockX = 32, kAddColmajorBlockY = 8;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape add_colmajor_shape(int rows, int cols) {
  return {dim3(blocks_for(rows, kAddColmajorBlockX), grid_y(blocks_for(cols, kAddColmajorBlockY))),
          dim3(kAddColmajorBlockX, kAddColmajorBlockY)};
}

template <typename T>
void launch_add_colmajor(const AddArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = add_colmajor_shape(a.rows, a.cols);
  add_colmajor<<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("add_colmajor");
}
template void launch_add_colmajor<float>(const AddArgs<float>&, cudaStream_t);
template void launch_add_colmajor<double>(const AddArgs<double>&, cudaStream_t);
template void launch_add_colmajor<std::int32_t>(const AddArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
