// Chapter 06, the paper's loading (paper 000, sec. 6.4, Fig. 15): 06_01_shared.cu with the tile filled
// the way the paper describes it. Each thread loads its OWN column of rows j-1, j and j+1, so a
// warp's load starts at column i0 = blockIdx.x * blockDim.x, a multiple of the block size, at the
// start of an aligned row (every row is pitched): the load is aligned and coalesced. Only the first
// thread of the block also loads the left halo value (column i0-1) and only the last thread the
// right one (column i0+blockDim.x): two single-lane loads per row, the paper's "only the first and
// last thread within the block will have uncoalesced reads".
//
// 06_01_shared.cu instead lets thread t load column i0-1+t, and the last (width - blockDim.x) columns
// in a second pass: every warp's load is shifted by one float from the row's alignment, so it
// touches one sector more than it needs. Same tile, same update, same barriers.
//
// Partial blocks: threads beyond column nx-1 put 0 in their tile column (a zero coefficient meets
// it anyway), still load their halo if they are the first or the last thread, and reach both
// barriers; they only skip the store.
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_shared_paper(PitchedArgs a) {
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
      float* t = tile + r * width + 1;  // t[c] holds column i0 + c, c = -1 .. blockDim.x
      t[threadIdx.x] = i < a.nx ? row[i] : 0.0f;         // its own column: aligned, coalesced
      if (threadIdx.x == 0) t[-1] = row[i0 - 1];          // left halo (column -1 exists in every row)
      if (threadIdx.x == blockDim.x - 1) {                // right halo
        const int right = i0 + static_cast<int>(blockDim.x);
        t[blockDim.x] = right <= a.nx ? row[right] : 0.0f;
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
void launch_jacobi_shared_paper(const PitchedArgs& a, int block, cudaStream_t stream) {
  const dim3 grid(blocks_for(a.nx, block), grid_rows(a.ny));
  const std::size_t shared_bytes = 3 * (static_cast<std::size_t>(block) + 2) * sizeof(float);
  jacobi_shared_paper<<<grid, block, shared_bytes, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_shared_paper");
}
#endif

}  // namespace gpgpu::jacobi::cuda
