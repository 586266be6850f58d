// Exercise 03 skeleton: write the kernel's body (TODO(exercise)). The check
// (check_unpadded_borders.cpp) fails until it is right.
#include "gpgpu/cuda/check.hpp"
#include "unpadded_borders.hpp"

namespace ex03 {
namespace {

__global__ void jacobi_unpadded(UnpaddedArgs a) {
  (void)a;
  // TODO(exercise): one thread per unknown, as kernels/jacobi/cuda/03_simple.cu, but x has no
  // ghost elements around it.
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_unpadded_borders_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_unpadded(const UnpaddedArgs& a, int block) {
  const long long nodes = static_cast<long long>(a.nx) * a.ny;
  jacobi_unpadded<<<static_cast<unsigned>((nodes + block - 1) / block), block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_unpadded");
}
#endif

}  // namespace ex03
