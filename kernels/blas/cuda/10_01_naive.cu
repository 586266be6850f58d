// Chapter 10, step 1: paper 003's naive multiply (Obr. 8) made safe for any m, n, k. One thread per
// element of C: a dot product of row `row` of A and column `col` of B. A warp's 32 threads share a
// row and take 32 neighbouring columns, so each step reads one A element (broadcast) and one
// contiguous 128-byte run of B: coalesced. But every element of A is read n times and every
// element of B m times, from L2 or DRAM: 2 loads per multiply-add, far below what the cores can do.
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [naive]
template <typename T>
__global__ void gemm_naive(GemmArgs<T> g) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= g.m || col >= g.n) return;
  T sum = 0;
  for (int p = 0; p < g.k; ++p) sum += g.a[row * g.k + p] * g.b[p * g.n + col];
  g.c[row * g.n + col] = sum;
}
//! [naive]

/// The launch: blocks of 16 x 16 threads, one element of C each (the paper's).
constexpr int kNaiveBlock = 16;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_gemm_kernels_emulated.cpp runs the kernel above on the CPU
GemmShape naive_shape() { return {kNaiveBlock, kNaiveBlock, kNaiveBlock * kNaiveBlock}; }

template <typename T>
void launch_naive(const GemmArgs<T>& g, cudaStream_t stream) {
  const dim3 block(kNaiveBlock, kNaiveBlock);
  const dim3 grid(blocks_for(g.n, kNaiveBlock), blocks_for(g.m, kNaiveBlock));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_naive: more block rows than gridDim.y allows");
  gemm_naive<T><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_naive");
}
template void launch_naive<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_naive<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
