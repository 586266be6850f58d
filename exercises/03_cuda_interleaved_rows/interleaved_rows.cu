// Exercise 03 skeleton: write the kernel marked TODO(exercise). The check
// (check_interleaved_rows.cpp, which also holds the host code) fails until it is right.
#include "gpgpu/cuda/check.hpp"
#include "interleaved_rows.hpp"

namespace ex03 {
namespace {

__global__ void jacobi_interleaved(InterleavedArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= a.nodes) return;
  // TODO(exercise): the same update as kernels/jacobi/cuda/03_simple.cu, but node k's nine
  // coefficients are a.rows[9k + 0] (SW) ... a.rows[9k + 8] (NE), the centre at 9k + 4.
  // Careful: 9k overflows an int for grids above 238 million nodes; index with std::size_t.
  // Write the new value to a.x_new[a.nx + 1 + k].
}

}  // namespace

void launch_jacobi_interleaved(const InterleavedArgs& a, int block) {
  jacobi_interleaved<<<(a.nodes + block - 1) / block, block>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_interleaved");
}

}  // namespace ex03
