// Chapter 06 (paper sec. 6.4, Figs. 15-16): 05_pitched.cu, but the block first copies the x
// values its threads need into shared memory: rows j-1, j and j+1, columns i0-1 .. i0+blockDim.x
// (its own columns plus one halo column on each side). Consecutive threads load consecutive
// elements, so those reads are coalesced; only the halo ends are not. After __syncthreads() every
// thread reads its nine x values from shared memory.
//
// Partial blocks: the last block of a row may have threads beyond column nx-1. They must still
// help load the tile and reach both barriers (a thread that returned early would leave
// __syncthreads() waiting for it), so they only skip the store.
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_shared(PitchedArgs a) {
  extern __shared__ float tile[];  // 3 rows of (blockDim.x + 2) values
  const int width = blockDim.x + 2;
  const int i0 = blockIdx.x * blockDim.x;
  const int i = i0 + threadIdx.x;
  const int p = a.pitch;
  const Diagonals& A = a.A;
  for (int j = blockIdx.y; j < a.ny; j += gridDim.y) {  // the same j for the whole block
    // Columns -1 .. nx exist in every row (ghost rows, pitch padding); beyond nx the tile holds 0.
    for (int r = 0; r < 3; ++r) {
      const float* row = a.x + (j - 1 + r) * p;
      for (int t = threadIdx.x; t < width; t += blockDim.x) {
        const int col = i0 - 1 + t;
        tile[r * width + t] = col <= a.nx ? row[col] : 0.0f;
      }
    }
    __syncthreads();
    if (i < a.nx) {
      const int k = j * p + i;
      const float* below = tile + threadIdx.x + 1;  // centre column of row j-1
      const float* mid = below + width;
      const float* above = mid + width;
      const float sum = A.sw[k] * below[-1] + A.s[k] * below[0] + A.se[k] * below[1] + A.w[k] * mid[-1] +
                        A.e[k] * mid[1] + A.nw[k] * above[-1] + A.n[k] * above[0] + A.ne[k] * above[1];
      a.x_new[k] = (1.0f - a.omega) * mid[0] + a.omega * (a.f[k] - sum) / A.c[k];
    }
    __syncthreads();  // the next row's loads overwrite the tile
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
//! [launch]
void launch_jacobi_shared(const PitchedArgs& a, int block, cudaStream_t stream) {
  const dim3 grid(blocks_for(a.nx, block), grid_rows(a.ny));
  const std::size_t shared_bytes = 3 * (static_cast<std::size_t>(block) + 2) * sizeof(float);
  jacobi_shared<<<grid, block, shared_bytes, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_shared");
}
//! [launch]
#endif

}  // namespace gpgpu::jacobi::cuda
