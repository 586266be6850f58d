// Worked answer to exercise 03: the simple kernel with range tests instead of ghost elements.
// A neighbour is read only when it lies inside the grid; outside, its term is left out (the stored
// coefficient there is zero anyway, but the value it would multiply is not x's: 0 times whatever
// lies outside the array is NaN when that is NaN, and a fault when it is not mapped).
//
// What the tests cost: i = k % nx and j = k / nx (an integer division, a few dozen instructions
// on a GPU), four comparisons and branches that differ only for the threads of the first and last
// rows and columns. The kernel moves the same bytes as 03_simple.cu, and it is memory-bound by a
// factor of fifty, so the extra instructions hide behind the loads: the measurement shows how much.
#include "gpgpu/cuda/check.hpp"
#include "unpadded_borders.hpp"

namespace ex03 {
namespace {

__global__ void jacobi_unpadded(UnpaddedArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int nx = a.nx;
  if (k >= nx * a.ny) return;
  const int i = k % nx, j = k / nx;
  const bool west = i > 0, east = i < nx - 1, south = j > 0, north = j < a.ny - 1;
  const gpgpu::jacobi::cuda::Diagonals& A = a.A;
  const float* x = a.x;
  float sum = 0.0f;
  if (south) {
    if (west) sum += A.sw[k] * x[k - nx - 1];
    sum += A.s[k] * x[k - nx];
    if (east) sum += A.se[k] * x[k - nx + 1];
  }
  if (west) sum += A.w[k] * x[k - 1];
  if (east) sum += A.e[k] * x[k + 1];
  if (north) {
    if (west) sum += A.nw[k] * x[k + nx - 1];
    sum += A.n[k] * x[k + nx];
    if (east) sum += A.ne[k] * x[k + nx + 1];
  }
  a.x_new[k] = (1.0f - a.omega) * x[k] + a.omega * (a.f[k] - sum) / A.c[k];
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
