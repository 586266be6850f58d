// Weighted Jacobi, one work-item per unknown, everything read from global memory: the OpenCL port
// of kernels/jacobi/cuda/03_simple.cu and kernels/jacobi/cuda/04_aligned.cu (the paper's "CUDA
// Simple" and "CUDA Aligned", paper 000, secs. 6.1-6.2, Figs. 11-13).
//
// Layout (problems/jacobi/include/gpgpu/jacobi/layouts.hpp): the nine diagonals are separate
// arrays of nx*ny coefficients, zero where a neighbour lies outside the grid (paper Fig. 2); x is
// ghost-padded, unknown k at x[ghost + k] with at least nx+1 zeros on both sides (paper Fig. 12),
// so every neighbour read is in range without a test. The CUDA kernels 03 and 04 differ in one
// line, the ghost offset: nx+1 written into 03, a parameter in 04. Here it is a parameter from
// the start, so one kernel serves both: the host passes nx+1 (simple) or nx+1 rounded up to 16
// (aligned).
//
// CUDA -> OpenCL: __global__ -> __kernel; pointers into device memory gain the __global address
// space; blockIdx.x * blockDim.x + threadIdx.x -> get_global_id(0); the struct of arguments
// becomes a list of arguments (an OpenCL 1.2 kernel cannot take a struct of buffer pointers).
// The global size is rounded up to a whole number of work-groups, so the surplus work-items
// return at once, as CUDA's surplus threads of the last block do. No `restrict`: the CUDA kernels
// have no __restrict__ either, so both compilers make the same aliasing assumptions (restrict
// would let NVIDIA's compiler use the read-only data cache: the step of
// kernels/jacobi/cuda/07b_01_readonly.cu).
//! [kernel]
__kernel void jacobi_simple(__global const float* sw, __global const float* s,
                            __global const float* se, __global const float* w,
                            __global const float* c, __global const float* e,
                            __global const float* nw, __global const float* n,
                            __global const float* ne, __global const float* f,
                            __global const float* x, __global float* x_new,
                            const int nx, const int nodes, const int ghost, const float omega) {
  const int k = (int)get_global_id(0);
  if (k >= nodes) return;
  __global const float* xk = x + ghost + k;  // xk[0] is unknown k, xk[-nx] the one below it
  const float offdiag = sw[k] * xk[-nx - 1] + s[k] * xk[-nx] + se[k] * xk[-nx + 1]
                      + w[k] * xk[-1] + e[k] * xk[1]
                      + nw[k] * xk[nx - 1] + n[k] * xk[nx] + ne[k] * xk[nx + 1];
  x_new[ghost + k] = (1.0f - omega) * xk[0] + omega * (f[k] - offdiag) / c[k];
}
//! [kernel]
