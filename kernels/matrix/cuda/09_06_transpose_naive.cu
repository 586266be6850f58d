// Chapter 09 (paper 003, sec. 6.5.1, Obr. 18): out = inᵀ, one thread per element, a 2D grid of
// 32 x 8 blocks. threadIdx.x walks along a row of `out`, so the warp's store is one contiguous run;
// but out's row is in's column, so the warp's 32 loads are `cols` elements apart: each one a
// memory transaction (32-byte sector) of its own, of which the thread uses 4 or 8 bytes. One of the
// two sides of a transpose is always read or written across rows; this kernel puts the cost on
// the loads. Added to the printed kernel: the bounds, rectangular matrices, the row loop.
#include "launchers.hpp"

#include <cstdint>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::matrix::cuda {
namespace {

//! [transpose_naive]
template <typename T>
__global__ void transpose_naive(TransposeArgs<T> a) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of out = row of in
  if (x >= a.rows) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < a.cols; y += gridDim.y * blockDim.y)
    a.out[y * a.rows + x] = a.in[x * a.cols + y];  // store along a row, load down a column
}
//! [transpose_naive]

// The launch: blocks of 32 x 8 threads, a warp along a row of out; the grid covers out's columns (in's
// rows), and its rows up to gridDim.y's limit (the kernel's loop does the rest).
constexpr int kTransposeNaiveBlockX = 32, kTransposeNaiveBlockY = 8;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
LaunchShape transpose_naive_shape(int rows, int cols) {
  return {dim3(blocks_for(rows, kTransposeNaiveBlockX), grid_y(blocks_for(cols, kTransposeNaiveBlockY))),
          dim3(kTransposeNaiveBlockX, kTransposeNaiveBlockY)};
}

template <typename T>
void launch_transpose_naive(const TransposeArgs<T>& a, cudaStream_t stream) {
  const LaunchShape s = transpose_naive_shape(a.rows, a.cols);
  transpose_naive<<<s.grid, s.block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_naive");
}
template void launch_transpose_naive<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_naive<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_naive<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
