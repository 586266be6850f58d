// Exercise 07b, a shortcut the check must catch (its grading test proves it fails): no kernel of its
// own, but chapter 07b's symmetric kernel (kernels/jacobi/cuda/07b_04_symmetric.cu), whose arguments
// are the same, called through its launcher wherever the include path reaches it. The student's file
// is compiled against the exercise's interface and a copy of gpgpu/cuda/check.hpp alone, so here the
// chapter's header is not found and what is left is the skeleton's unwritten update; were it found,
// this would pass on the GPU.
#include "gpgpu/cuda/check.hpp"
#include "symmetric_kernel.hpp"

#if __has_include("jacobi/cuda/launchers.hpp")
#include "jacobi/cuda/launchers.hpp"
#define EX07B_CHAPTERS_KERNEL 1
#endif

namespace ex07b {
namespace {

__global__ void jacobi_symmetric(SymmetricArgs a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (i >= a.nx || j >= a.ny) return;
  const int k = j * a.pitch + i;
  (void)k;
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_jacobi_symmetric(const SymmetricArgs& a, int block) {
#ifdef EX07B_CHAPTERS_KERNEL
  namespace jc = gpgpu::jacobi::cuda;
  jc::launch_jacobi_symmetric({a.c, a.e, a.nw, a.n, a.ne, a.f, a.x, a.x_new, a.nx, a.ny, a.pitch, a.omega}, block, 1, nullptr);
#else
  const dim3 grid((a.nx + block - 1) / block, a.ny);
  jacobi_symmetric<<<grid, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_symmetric (exercise 07b)");
#endif
}
#endif

}  // namespace ex07b
