// Exercise 07b skeleton: write the kernel body marked TODO(exercise). The check
// (check_symmetric_kernel.cpp, which also holds the host code) fails until it is right.
#include "gpgpu/cuda/check.hpp"
#include "symmetric_kernel.hpp"

namespace ex07b {
namespace {

__global__ void jacobi_symmetric(SymmetricArgs a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (i >= a.nx || j >= a.ny) return;
  const int k = j * a.pitch + i;
  (void)k;
  // TODO(exercise): the weighted Jacobi update of unknown (i, j) into a.x_new[k], from the five
  // stored arrays only.
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
