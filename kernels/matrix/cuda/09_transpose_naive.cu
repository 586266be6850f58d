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

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
template <typename T>
void launch_transpose_naive(const TransposeArgs<T>& a, cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(blocks_for(a.rows, kBlockX), grid_y(blocks_for(a.cols, kBlockY)));
  transpose_naive<<<grid, block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_naive");
}
template void launch_transpose_naive<float>(const TransposeArgs<float>&, cudaStream_t);
template void launch_transpose_naive<double>(const TransposeArgs<double>&, cudaStream_t);
template void launch_transpose_naive<std::int32_t>(const TransposeArgs<std::int32_t>&, cudaStream_t);
#endif

}  // namespace gpgpu::matrix::cuda
