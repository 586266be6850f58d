// Worked answer to exercise 07b: one point per thread with the symmetric storage. The four lower
// couplings are read at shifted indices of the upper arrays (at the grid's edges those reads land in
// ghost rows or zero padding, or on a coefficient that is zero because its own neighbour is
// missing). Chapter 07b's kernels/jacobi/cuda/07b_04_symmetric.cu does the same four columns and several
// rows per thread, with the shifted values kept in registers.
//
// The README's question, 1.5 times the speed? Only if the shifted reads cost no DRAM bytes. E(i−1, j)
// is one float off the warp's own E row: the same lines, an L1 hit. N(i, j−1), NE(i−1, j−1) and
// NW(i+1, j−1) are the row below, which another block (one block per row here) loaded: at best an L2
// hit, a DRAM read again if the L2 lost it. So expect the bytes from DRAM near 32 per node, but
// nine coefficient loads per node reaching the L1 and the three reads of the row below reaching the
// L2, where the chapter's kernel keeps that row in registers; measure it (Measure.*) beside chapter
// 05's kernel, and the chapter's answer 2 (about 1.49x for its own kernel) is the bound to hold it
// against.
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
  a.x_new[k] = (1.0f - a.omega) * x[0] + a.omega * (a.f[k] - (lower + upper)) / a.c[k];
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
