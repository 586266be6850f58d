// Chapter 07 (paper sec. 6.5, Fig. 17): 04_aligned.cu (1D grid, aligned ghost offset), with
// x read through the texture path: tex1Dfetch on a texture OBJECT over the linear buffer. The
// texture cache keeps the rows j-1, j, j+1 that neighbouring threads and blocks share, so the
// misaligned neighbour reads are served on chip. Texture objects are ordinary kernel arguments:
// the solver makes one per ping-pong buffer and swaps objects, never data. (The paper's texture
// references, bound with cudaBindTexture, were removed in CUDA 12.)
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_texture(TextureArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;  // unknown k = j*nx + i
  if (k >= a.nodes) return;
  const int nx = a.nx;
  const int c = a.offset + k;  // element index of unknown k in the texture
  const cudaTextureObject_t x = a.x;
  const Diagonals& A = a.A;
  const float sum = A.sw[k] * tex1Dfetch<float>(x, c - nx - 1) + A.s[k] * tex1Dfetch<float>(x, c - nx) +
                    A.se[k] * tex1Dfetch<float>(x, c - nx + 1) + A.w[k] * tex1Dfetch<float>(x, c - 1) +
                    A.e[k] * tex1Dfetch<float>(x, c + 1) + A.nw[k] * tex1Dfetch<float>(x, c + nx - 1) +
                    A.n[k] * tex1Dfetch<float>(x, c + nx) + A.ne[k] * tex1Dfetch<float>(x, c + nx + 1);
  a.x_new[c] = (1.0f - a.omega) * tex1Dfetch<float>(x, c) + a.omega * (a.f[k] - sum) / A.c[k];
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_texture(const TextureArgs& a, int block, cudaStream_t stream) {
  jacobi_texture<<<blocks_for(a.nodes, block), block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_texture");
}
#endif

}  // namespace gpgpu::jacobi::cuda
