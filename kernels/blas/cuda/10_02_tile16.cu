// Chapter 10, step 2: paper 003's shared-memory multiply (Obr. 10), made safe for any m, n, k. A
// block of 16 x 16 threads computes a 16 x 16 tile of C. It walks along k in steps of 16: each
// thread loads one element of A's tile and one of B's into shared memory, the block meets at a
// barrier, and each thread does 16 multiply-adds from shared memory. Every element loaded from
// global memory now serves 16 threads: 16 times less traffic. Where a tile reaches past the
// matrix, the thread loads a zero instead (a zero adds nothing to the dot product), so the inner
// loop needs no test; every thread reaches both barriers, even those outside C.
#include "launchers.hpp"

#include <stdexcept>

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::blas::cuda {
namespace {

//! [tile16]
template <typename T, int Tile>
__global__ void gemm_tile(GemmArgs<T> g) {
  __shared__ T as[Tile][Tile];
  __shared__ T bs[Tile][Tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * Tile + ty;  // of A and C
  const int col = blockIdx.x * Tile + tx;  // of B and C
  T sum = 0;
  for (int p0 = 0; p0 < g.k; p0 += Tile) {
    as[ty][tx] = row < g.m && p0 + tx < g.k ? g.a[row * g.k + p0 + tx] : T(0);
    bs[ty][tx] = p0 + ty < g.k && col < g.n ? g.b[(p0 + ty) * g.n + col] : T(0);
    __syncthreads();  // the tiles are complete
    for (int p = 0; p < Tile; ++p) sum += as[ty][p] * bs[p][tx];
    __syncthreads();  // everyone is done with them before the next step overwrites them
  }
  if (row < g.m && col < g.n) g.c[row * g.n + col] = sum;
}
//! [tile16]

//! [tile16_launch]
/// The paper's BLOCK_SIZE (Obr. 10): a 16 x 16 tile of C per block of 16 x 16 threads.
constexpr int kPaperTile = 16;

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
GemmShape tile16_shape() { return {kPaperTile, kPaperTile, kPaperTile * kPaperTile}; }

template <typename T>
void launch_tile16(const GemmArgs<T>& g, cudaStream_t stream) {
  const dim3 block(kPaperTile, kPaperTile);
  const dim3 grid(blocks_for(g.n, kPaperTile), blocks_for(g.m, kPaperTile));
  if (grid.y > kMaxGridY) throw std::length_error("gemm_tile16: more block rows than gridDim.y allows");
  gemm_tile<T, kPaperTile><<<grid, block, 0, stream>>>(g);
  GPGPU_CUDA_CHECK_LAUNCH("gemm_tile16");
}
//! [tile16_launch]
template void launch_tile16<float>(const GemmArgs<float>&, cudaStream_t);
template void launch_tile16<double>(const GemmArgs<double>&, cudaStream_t);
#endif

}  // namespace gpgpu::blas::cuda
