// Chapter 07b (past the paper; the paper's conclusion proposes it): 2D blocks with a
// shared-memory halo. A block of bx × by threads updates a bx × by tile of the grid; it first loads
// the (bx+2) × (by+2) x values the tile touches into shared memory, each row of the tile with
// consecutive threads (coalesced), then computes from shared memory. 06_01_shared.cu loaded three rows
// for every row it updated (each x row three times, by three blocks); a tall tile loads
// (by+2)/by rows per row. The diagonals and f are read once each, read-only (07b_01_readonly.cu).
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_tiled2d(PitchedArgs a) {
  extern __shared__ float tile[];  // (blockDim.y + 2) rows of (blockDim.x + 2) values
  const int width = blockDim.x + 2;
  const int cells = width * (blockDim.y + 2);
  const int thread = threadIdx.y * blockDim.x + threadIdx.x;
  const int threads = blockDim.x * blockDim.y;
  const int i0 = blockIdx.x * blockDim.x;
  const int i = i0 + threadIdx.x;
  const int p = a.pitch;
  const Diagonals& A = a.A;
  for (int j0 = blockIdx.y * blockDim.y; j0 < a.ny; j0 += gridDim.y * blockDim.y) {  // same j0 for the block
    // Halo included: columns i0-1 .. i0+bx, rows j0-1 .. j0+by; outside columns -1..nx and rows
    // -1..ny the tile holds 0 (those values are never used with a nonzero coefficient).
    for (int t = thread; t < cells; t += threads) {
      const int col = i0 - 1 + t % width;
      const int row = j0 - 1 + t / width;
      tile[t] = (col <= a.nx && row <= a.ny) ? __ldg(a.x + row * p + col) : 0.0f;
    }
    __syncthreads();
    const int j = j0 + threadIdx.y;
    if (i < a.nx && j < a.ny) {
      const int k = j * p + i;
      const float* mid = tile + (threadIdx.y + 1) * width + threadIdx.x + 1;
      const float* below = mid - width;
      const float* above = mid + width;
      const float sum = __ldg(A.sw + k) * below[-1] + __ldg(A.s + k) * below[0] + __ldg(A.se + k) * below[1] +
                        __ldg(A.w + k) * mid[-1] + __ldg(A.e + k) * mid[1] + __ldg(A.nw + k) * above[-1] +
                        __ldg(A.n + k) * above[0] + __ldg(A.ne + k) * above[1];
      a.x_new[k] = (1.0f - a.omega) * mid[0] + a.omega * (__ldg(a.f + k) - sum) / __ldg(A.c + k);
    }
    __syncthreads();  // the next tile's loads overwrite this one
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_tiled2d(const PitchedArgs& a, int block_x, int block_y, cudaStream_t stream) {
  const dim3 block(block_x, block_y);
  const dim3 grid(blocks_for(a.nx, block_x), grid_rows(blocks_for(a.ny, block_y)));
  const std::size_t shared_bytes =
      (static_cast<std::size_t>(block_x) + 2) * (static_cast<std::size_t>(block_y) + 2) * sizeof(float);
  jacobi_tiled2d<<<grid, block, shared_bytes, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_tiled2d");
}
#endif

}  // namespace gpgpu::jacobi::cuda
