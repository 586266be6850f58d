// Exercise 07b, a shortcut the check must reject: the worked answer with ω hard-coded to the
// chapters' 0.8 instead of the argument. Right at the default ω, wrong at any other.
#include "gpgpu/cuda/check.hpp"
#include "symmetric_kernel.hpp"

namespace ex07b {
namespace {

__global__ void jacobi_symmetric(SymmetricArgs a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (i >= a.nx || j >= a.ny) return;
  const int p = a.pitch;
  const int k = j * p + i;
  const float* x = a.x + k;
  const float upper = a.e[k] * x[1] + a.nw[k] * x[p - 1] + a.n[k] * x[p] + a.ne[k] * x[p + 1];
  const float lower = a.e[k - 1] * x[-1] + a.nw[k - p + 1] * x[-p + 1] + a.n[k - p] * x[-p] + a.ne[k - p - 1] * x[-p - 1];
  a.x_new[k] = 0.2f * x[0] + 0.8f * (a.f[k] - (lower + upper)) / a.c[k];  // ω hard-coded
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_symmetric_kernel_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_symmetric(const SymmetricArgs& a, int block) {
  const dim3 grid((a.nx + block - 1) / block, a.ny);
  jacobi_symmetric<<<grid, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_symmetric (exercise 07b)");
}
#endif

}  // namespace ex07b
