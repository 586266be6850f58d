// Exercise 03, a shortcut the checks must reject: the worked answer without its range test
// (`if (k >= nx * a.ny) return;`). The last block's surplus threads (j >= ny, so no north terms)
// read past the diagonals' ends and write x_new beyond the unknowns, into the guard zone, a value
// computed from x's guard NaN. Caught only because the two iterates' guards hold different NaNs.
#include "gpgpu/cuda/check.hpp"
#include "unpadded_borders.hpp"

namespace ex03 {
namespace {

__global__ void jacobi_unpadded(UnpaddedArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int nx = a.nx;
  // no range test: a thread beyond nx*ny (the last block's surplus) reads and writes past the grid
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
