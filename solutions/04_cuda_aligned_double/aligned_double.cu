// Worked answer to exercise 04: the aligned offset in elements for any word size, and chapter 04's
// kernel with a double iterate over the float matrix.
//
// Why float coefficients are enough: the reference computes in double on the same float matrix
// and right-hand side, whose values are exact in double. Converting a coefficient to double when
// it is used loses nothing; what must be double is x and every operation on it, or the result
// carries float rounding (about 1e-7) where the check allows about 1e-13.
//
// What it costs: 9 + 1 floats and 2 doubles per node cross the bus, 56 B instead of 48 B (float)
// or 96 B (everything double). A warp's 32 doubles are 256 bytes, two 128-byte lines: the store
// and the centre load start a line when the offset is a multiple of 16 doubles.
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
  if (k >= a.nodes) return;
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
