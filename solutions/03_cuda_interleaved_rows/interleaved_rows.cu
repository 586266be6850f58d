// Worked answer to exercise 03: the simple kernel on interleaved rows. Each thread reads its nine
// coefficients from one 36-byte record, so a warp's load of coefficient d touches 32 records
// 36 bytes apart: 1152 bytes, 36 sectors, for 128 useful bytes. The nine loads of the record
// share those sectors (L1 hits after the first), but the first one waits for all of them.
#include <cstddef>

#include "gpgpu/cuda/check.hpp"
#include "interleaved_rows.hpp"

namespace ex03 {
namespace {

__global__ void jacobi_interleaved(InterleavedArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= a.nodes) return;
  const int nx = a.nx;
  const float* r = a.rows + 9 * static_cast<std::size_t>(k);
  const float* x = a.x + (nx + 1) + k;
  const float sum = r[0] * x[-nx - 1] + r[1] * x[-nx] + r[2] * x[-nx + 1] + r[3] * x[-1] + r[5] * x[1] +
                    r[6] * x[nx - 1] + r[7] * x[nx] + r[8] * x[nx + 1];
  a.x_new[(nx + 1) + k] = (1.0f - a.omega) * x[0] + a.omega * (a.f[k] - sum) / r[4];
}

}  // namespace

void launch_jacobi_interleaved(const InterleavedArgs& a, int block) {
  jacobi_interleaved<<<(a.nodes + block - 1) / block, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_interleaved");
}

}  // namespace ex03
