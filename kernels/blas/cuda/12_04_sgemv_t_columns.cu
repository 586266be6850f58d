// Chapter 12: SGEMV transposed, y <- Aᵀ x, a tiled sweep down the columns. Element j of y is the
// dot product of column j of A with x; a thread per column reading down it would make each warp
// load 32 floats 4n bytes apart. Instead a block takes 32 neighbouring columns and kGemvTRows rows:
// its 8 row lanes walk down the rows, a warp reading 128 contiguous bytes of a row per step, each
// thread summing x_i A_ij for its column. The 8 partial sums of a column meet in shared memory and
// one atomicAdd per column and block adds them to y (zeroed first): enough blocks to fill the GPU
// at any shape, and each element of A still read exactly once.
#include "level12.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [sgemv_t_columns]
__global__ void __launch_bounds__(kGemvTColumns * kGemvTLanes) sgemv_t_columns(GemvArgs g) {
  __shared__ float partial[kGemvTLanes][kGemvTColumns];
  const int col = blockIdx.x * kGemvTColumns + threadIdx.x;
  const int row_begin = blockIdx.y * kGemvTRows;
  const int row_end = min(row_begin + kGemvTRows, g.m);
  float sum = 0;
  if (col < g.n)
    for (int i = row_begin + threadIdx.y; i < row_end; i += kGemvTLanes)
      sum = fmaf(g.a[static_cast<long long>(i) * g.n + col], g.x[i], sum);
  partial[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();  // every thread of the block reaches it: no return above
  if (threadIdx.y == 0 && col < g.n) {
    float total = 0;
    for (int lane = 0; lane < kGemvTLanes; ++lane) total += partial[lane][threadIdx.x];
    atomicAdd(&g.y[col], total);
  }
}
//! [sgemv_t_columns]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_sgemv_t_columns(const GemvArgs& g, cudaStream_t stream) {
  GPGPU_CUDA_CHECK(cudaMemsetAsync(g.y, 0, sizeof(float) * static_cast<size_t>(g.n), stream));
  const dim3 grid(level12_blocks(g.n, kGemvTColumns), level12_blocks(g.m, kGemvTRows));
  if (grid.y > 65535) throw std::length_error("sgemv_t_columns: more than 65535 row blocks");
  sgemv_t_columns<<<grid, dim3(kGemvTColumns, kGemvTLanes), 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("sgemv_t_columns");
}
#endif

}  // namespace gpgpu::blas::cuda
