// Chapter 05 (paper sec. 6.3, Fig. 14): every array pitched by cudaMallocPitch, so each
// row of the grid starts at an aligned address whatever the width. A 2D grid of 1D blocks:
// blockIdx.y picks the row, blockIdx.x and threadIdx.x the column. The same index k = j*pitch + i
// addresses every array (diagonals, f, x), which all carry gpgpu::jacobi::kPitchedGhostRows zero rows above and below.
// Now the centre, N and S loads and the store of a warp are aligned for every width; the six
// diagonal neighbours (±1) are not.
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_pitched(PitchedArgs a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.nx) return;
  const int p = a.pitch;
  const Diagonals& A = a.A;
  for (int j = blockIdx.y; j < a.ny; j += gridDim.y) {  // loops only when ny > 65535
    const int k = j * p + i;
    const float* x = a.x + k;
    const float sum = A.sw[k] * x[-p - 1] + A.s[k] * x[-p] + A.se[k] * x[-p + 1] + A.w[k] * x[-1] + A.e[k] * x[1] +
                      A.nw[k] * x[p - 1] + A.n[k] * x[p] + A.ne[k] * x[p + 1];
    a.x_new[k] = (1.0f - a.omega) * x[0] + a.omega * (a.f[k] - sum) / A.c[k];
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
//! [launch]
void launch_jacobi_pitched(const PitchedArgs& a, int block, cudaStream_t stream) {
  const dim3 grid(blocks_for(a.nx, block), grid_rows(a.ny));
  jacobi_pitched<<<grid, block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_pitched");
}
//! [launch]
#endif

}  // namespace gpgpu::jacobi::cuda
