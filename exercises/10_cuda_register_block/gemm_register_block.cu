// Exercise 10 skeleton: choose the tile shape (kShape) and write the kernel body marked
// TODO(exercise). The checks (check_register_block.cpp on the GPU, check_register_block_emulated.cpp
// on the CPU emulation) fail until both are right.
#include "gemm_register_block.hpp"

#include "gpgpu/cuda/check.hpp"

namespace ex10 {
namespace {

// TODO(exercise): your tile shape. These are the paper's 16 x 16 tile and one element per thread;
// pick block and thread tiles that keep within kMaxAccumulators and kMaxSharedBytes and make at most
// one shared-memory load per kFmasPerSharedLoad multiply-adds (gemm_register_block.hpp).
constexpr TileShape kShape{16, 16, 16, 1, 1};

// T is float on the GPU; the CPU check also runs the kernel with a T that counts loads and stores, so
// keep every value of A, B and C (and of their tiles and registers) in a T, and write T(0) for zero.
template <typename T>
__global__ void gemm_register_block(const T* a, const T* b, T* c, int m, int n, int k) {
  (void)a;
  (void)b;
  (void)c;
  (void)m;
  (void)n;
  (void)k;
  // TODO(exercise): the block's kShape.block_m x kShape.block_n tile of C, each of the kThreads
  // threads computing a kShape.thread_m x kShape.thread_n block of it in registers, through tiles of
  // A and B in shared memory. Sizes that are no multiple of any tile must work.
}

}  // namespace

TileShape tile_shape() { return kShape; }

#ifndef GPGPU_CUDA_EMULATION  // check_register_block_emulated.cpp runs the kernel above on the CPU
void launch_gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 grid((n + kShape.block_n - 1) / kShape.block_n, (m + kShape.block_m - 1) / kShape.block_m);
  gemm_register_block<float><<<grid, kThreads>>>(a, b, c, m, n, k);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_register_block (exercise 10)");
}
#endif

}  // namespace ex10
