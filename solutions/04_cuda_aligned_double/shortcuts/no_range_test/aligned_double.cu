// Exercise 04, a shortcut the check must reject: the worked answer without its range test. The
// grid's unknowns come out right, but the threads of the last block past unknown nodes - 1 write
// behind the iterate (into its trailing ghosts and past the end of the array).
#include "aligned_double.hpp"
#include "gpgpu/cuda/check.hpp"

namespace ex04 {

std::int64_t aligned_offset_elements(std::int64_t nx, int line_bytes, int word_bytes) {
  const std::int64_t per_line = line_bytes / word_bytes;
  return (nx + 1 + per_line - 1) / per_line * per_line;
}

namespace {

__global__ void jacobi_mixed(MixedArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int nx = a.nx;
  const double* x = a.x + a.offset + k;
  const auto c = [&](int d) { return static_cast<double>(a.diag[d][k]); };  // exact: float -> double
  const double sum = c(0) * x[-nx - 1] + c(1) * x[-nx] + c(2) * x[-nx + 1] + c(3) * x[-1] + c(5) * x[1] +
                     c(6) * x[nx - 1] + c(7) * x[nx] + c(8) * x[nx + 1];
  a.x_new[a.offset + k] = (1.0 - a.omega) * x[0] + a.omega * (static_cast<double>(a.f[k]) - sum) / c(4);
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // check_aligned_double_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_mixed(const MixedArgs& a, int block) {
  jacobi_mixed<<<(a.nodes + block - 1) / block, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_mixed");
}
#endif

}  // namespace ex04
