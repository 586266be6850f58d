// Chapter 07b (past the paper): 05_pitched.cu with every load marked read-only. __ldg()
// compiles to LDG.E.CONSTANT (ld.global.nc): the load goes through the same on-chip cache as
// textures (since Maxwell, L1 and the texture cache are one), with no texture object to set up.
// The compiler emits it by itself only when it can prove the data cannot change during the
// kernel, e.g. for `const float* __restrict__` parameters; the pointers here sit in a struct,
// where __restrict__ carries no promise, so the kernel says it explicitly.
#include "launchers.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_readonly(PitchedArgs a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.nx) return;
  const int p = a.pitch;
  const Diagonals& A = a.A;
  for (int j = blockIdx.y; j < a.ny; j += gridDim.y) {  // loops only when ny > 65535
    const int k = j * p + i;
    const float* x = a.x + k;
    const float sum = __ldg(A.sw + k) * __ldg(x - p - 1) + __ldg(A.s + k) * __ldg(x - p) +
                      __ldg(A.se + k) * __ldg(x - p + 1) + __ldg(A.w + k) * __ldg(x - 1) +
                      __ldg(A.e + k) * __ldg(x + 1) + __ldg(A.nw + k) * __ldg(x + p - 1) +
                      __ldg(A.n + k) * __ldg(x + p) + __ldg(A.ne + k) * __ldg(x + p + 1);
    a.x_new[k] = (1.0f - a.omega) * __ldg(x) + a.omega * (__ldg(a.f + k) - sum) / __ldg(A.c + k);
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_readonly(const PitchedArgs& a, int block, cudaStream_t stream) {
  const dim3 grid(blocks_for(a.nx, block), grid_rows(a.ny));
  jacobi_readonly<<<grid, block, 0, stream>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_readonly");
}
#endif

}  // namespace gpgpu::jacobi::cuda
