// Chapter 04 (paper sec. 6.2, Fig. 13): 03_simple.cu with ONE change: the ghost offset is no
// longer nx+1 but a parameter, nx+1 rounded up to a multiple of the coalescing width
// (gpgpu::jacobi::aligned_offset). Thread k then writes x_new[offset + k] and reads x[offset + k] at an
// aligned address, so a warp's store and its centre load start on a segment boundary; the
// neighbours at ±1 and ±nx(±1) stay misaligned unless the width happens to help.
//   paper (compute capability 1.x): 16 floats = one 64-byte half-warp transaction;
//   today: 32 floats = one 128-byte line (four 32-byte sectors) for a full warp.
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_aligned(LinearArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;  // unknown k = j*nx + i
  if (k >= a.nodes) return;
  const int nx = a.nx;
  const float* x = a.x + a.offset + k;  // was: a.x + (nx + 1) + k
  const Diagonals& A = a.A;
  const float sum = A.sw[k] * x[-nx - 1] + A.s[k] * x[-nx] + A.se[k] * x[-nx + 1] + A.w[k] * x[-1] +
                    A.e[k] * x[1] + A.nw[k] * x[nx - 1] + A.n[k] * x[nx] + A.ne[k] * x[nx + 1];
  a.x_new[a.offset + k] = (1.0f - a.omega) * x[0] + a.omega * (a.f[k] - sum) / A.c[k];
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_aligned(const LinearArgs& a, int block, cudaStream_t stream) {
  jacobi_aligned<<<blocks_for(a.nodes, block), block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_aligned");
}
#endif

}  // namespace gpgpu::jacobi::cuda
