// Worked answer to exercise 06: the block's threads walk over the tile cells in steps of the block
// size (thread t loads cells t, t + bx*by, ...): consecutive threads load consecutive columns of a
// tile row, so the loads are coalesced, and any block shape covers the halo. One barrier separates
// the loads from the reads; threads outside the grid return only after it.
//
// The README's question, loads per x value: a bx × by block loads (bx + 2)(by + 2) values for bx·by
// updates, so 64 × 1 makes 66·3/64 = 3.09 loads per value (chapter 06's three rows), 32 × 8 1.33,
// 16 × 16 1.27 and 128 × 4 1.52. Those are loads from the L1 and L2, not from DRAM: at 4096 × 2048
// every shape's repeated loads should find their rows in the L2, so all four should move about the
// same DRAM bytes, and the shapes differ in L2 requests, in how many 32-byte sectors a tile row's unaligned loads
// touch (16 × 16's rows of 18 values cut lines most often) and in barrier waits. Which one is fastest
// is what Measure.* is for; predict from those three, then measure.
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
  for (int t = threadIdx.y * blockDim.x + threadIdx.x; t < cells; t += blockDim.x * blockDim.y) {
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
