// Chapter 03 (paper sec. 6.1, Fig. 11): the CPU code on the GPU. One thread per unknown,
// a 1D grid of 1D blocks, nine diagonal arrays in global memory, x padded with nx+1 ghost elements
// in front (and behind), so every neighbour index is valid and the zero coefficients of the
// boundary rows cancel whatever the ghosts hold (paper Fig. 12).
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_simple(LinearArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;  // unknown k = j*nx + i
  if (k >= a.nodes) return;
  const int nx = a.nx;
  const float* x = a.x + (nx + 1) + k;  // skip the ghosts: x[0] is unknown k, x[±1], x[±nx], x[±nx±1] its neighbours
  const Diagonals& A = a.A;
  const float sum = A.sw[k] * x[-nx - 1] + A.s[k] * x[-nx] + A.se[k] * x[-nx + 1] + A.w[k] * x[-1] +
                    A.e[k] * x[1] + A.nw[k] * x[nx - 1] + A.n[k] * x[nx] + A.ne[k] * x[nx + 1];
  a.x_new[(nx + 1) + k] = (1.0f - a.omega) * x[0] + a.omega * (a.f[k] - sum) / A.c[k];
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
//! [launch]
void launch_jacobi_simple(const LinearArgs& a, int block, cudaStream_t stream) {
  jacobi_simple<<<blocks_for(a.nodes, block), block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_simple");
}
//! [launch]
#endif

}  // namespace gpgpu::jacobi::cuda
