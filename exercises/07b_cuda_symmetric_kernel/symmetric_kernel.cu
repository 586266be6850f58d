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
  // TODO(exercise): the update of kernels/jacobi/cuda/05_pitched.cu with five arrays. The upper
  // couplings of node k are a.e[k], a.nw[k], a.n[k], a.ne[k]; each lower coupling is the upper
  // coupling of the neighbour on the other end: W at k-1 is that node's E, S at k-pitch its N,
  // SW at k-pitch-1 its NE, SE at k-pitch+1 its NW. Write the result to a.x_new[k].
}

}  // namespace

void launch_jacobi_symmetric(const SymmetricArgs& a, int block) {
  const dim3 grid((a.nx + block - 1) / block, a.ny);
  jacobi_symmetric<<<grid, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_symmetric (exercise 07b)");
}

}  // namespace ex07b
