// Exercise 10, the shortcut the grading test must catch: a correct product without register
// blocking, the paper's 16 x 16 shared-memory tile with one element of C per thread (two shared
// loads per multiply-add). Built only for the grading test shortcut_one_element_per_thread_fails,
// which expects the CPU check (check_register_block_emulated.cpp) to reject it.
#include "gemm_register_block.hpp"

namespace ex10 {
namespace {

constexpr TileShape kShape{16, 16, 16, 1, 1};

template <typename T>
__global__ void gemm_register_block(const T* a, const T* b, T* c, int m, int n, int k) {
  constexpr int kTile = 16;
  __shared__ T as[kTile][kTile];
  __shared__ T bs[kTile][kTile];
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  T sum = T(0);
  for (int p0 = 0; p0 < k; p0 += kTile) {
    as[ty][tx] = row < m && p0 + tx < k ? a[row * k + p0 + tx] : T(0);
    bs[ty][tx] = p0 + ty < k && col < n ? b[(p0 + ty) * n + col] : T(0);
    __syncthreads();
    for (int p = 0; p < kTile; ++p) sum += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

}  // namespace

TileShape tile_shape() { return kShape; }

}  // namespace ex10
