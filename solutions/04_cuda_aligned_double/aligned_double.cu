// Worked answer to exercise 04: the aligned offset in elements for any word size, and the aligned
// kernel in double precision. A warp's 32 doubles are 256 bytes, two 128-byte lines: the store and
// the centre load are aligned when unknown 0 starts a line, i.e. offset is a multiple of 16.
#include "aligned_double.hpp"
#include "gpgpu/cuda/check.hpp"

namespace ex04 {

std::int64_t aligned_offset_elements(std::int64_t nx, int line_bytes, int word_bytes) {
  const std::int64_t per_line = line_bytes / word_bytes;
  return (nx + 1 + per_line - 1) / per_line * per_line;
}

namespace {

__global__ void jacobi_aligned_double(AlignedDoubleArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= a.nodes) return;
  const int nx = a.nx;
  const double* x = a.x + a.offset + k;
  const double* const* d = a.diag;
  const double sum = d[0][k] * x[-nx - 1] + d[1][k] * x[-nx] + d[2][k] * x[-nx + 1] + d[3][k] * x[-1] +
                     d[5][k] * x[1] + d[6][k] * x[nx - 1] + d[7][k] * x[nx] + d[8][k] * x[nx + 1];
  a.x_new[a.offset + k] = (1.0 - a.omega) * x[0] + a.omega * (a.f[k] - sum) / d[4][k];
}

}  // namespace

void launch_jacobi_aligned_double(const AlignedDoubleArgs& a, int block) {
  jacobi_aligned_double<<<(a.nodes + block - 1) / block, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_aligned_double");
}

}  // namespace ex04
