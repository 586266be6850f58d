// Exercise 06, a shortcut the check must reject: the tile load leaves threadIdx.y out, so every row
// of the block's threads walks over the whole tile (thread x loads cells x, x + bx, ...): each x value
// is loaded by blockDim.y threads, not once per block, and the rows write the same cells with no
// barrier between (a race, though of equal values). The tile is complete and the iterate right. The
// emulated check sees a tile cell written by a second thread before the first barrier.
#include "gpgpu/cuda/check.hpp"
#include "shared_halo.hpp"

namespace ex06 {
namespace {

__global__ void jacobi_shared_2d(SharedArgs a) {
  extern __shared__ float tile[];  // (blockDim.y + 2) rows of (blockDim.x + 2) values
  const int width = blockDim.x + 2;
  const int i0 = blockIdx.x * blockDim.x, j0 = blockIdx.y * blockDim.y;
  const int i = i0 + threadIdx.x, j = j0 + threadIdx.y;

  const int cells = width * (blockDim.y + 2);
  for (int t = threadIdx.x; t < cells; t += blockDim.x) {  // every row of threads: the whole tile
    const int col = i0 - 1 + t % width, row = j0 - 1 + t / width;
    tile[t] = (col <= a.nx && row <= a.ny) ? a.x[row * a.pitch + col] : 0.0f;
  }
  __syncthreads();

  if (i >= a.nx || j >= a.ny) return;  // after the barrier: every thread must help load the tile
  const int k = j * a.pitch + i;
  const float* mid = tile + (threadIdx.y + 1) * width + threadIdx.x + 1;
  const float* below = mid - width;
  const float* above = mid + width;
  const float* const* d = a.diag;
  const float sum = d[0][k] * below[-1] + d[1][k] * below[0] + d[2][k] * below[1] + d[3][k] * mid[-1] +
                    d[5][k] * mid[1] + d[6][k] * above[-1] + d[7][k] * above[0] + d[8][k] * above[1];
  a.x_new[k] = (1.0f - a.omega) * mid[0] + a.omega * (a.f[k] - sum) / d[4][k];
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_shared_halo_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_shared_2d(const SharedArgs& a, int block_x, int block_y) {
  const dim3 block(block_x, block_y);
  const dim3 grid((a.nx + block_x - 1) / block_x, (a.ny + block_y - 1) / block_y);
  const std::size_t shared = static_cast<std::size_t>(block_x + 2) * (block_y + 2) * sizeof(float);
  jacobi_shared_2d<<<grid, block, shared>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_shared_2d");
}
#endif

}  // namespace ex06
