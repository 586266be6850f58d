// Weighted Jacobi, one work-item per unknown, everything read from global memory: the OpenCL port
// of the paper's "CUDA Simple" kernel (paper 000, sec. 6.1, Fig. 11; kernels/cuda/01_jacobi_simple.cu).
//
// Layout (common/include/gpgpu/layouts.hpp): the nine diagonals are separate arrays of nx*ny
// coefficients, zero where a neighbour lies outside the grid (paper Fig. 2); x is ghost-padded,
// unknown k at x[ghost + k] with at least nx+1 zeros on both sides (paper Fig. 12), so every
// neighbour read is in range without a test. ghost = nx+1 is the paper's simple layout; the host
// passes nx+1 rounded up to 16 elements for the aligned variant, which needs no kernel of its own
// (paper 000, sec. 6.2: only the offset changes).
//
// CUDA -> OpenCL: __global__ -> __kernel; pointers into device memory gain the __global address
// space; blockIdx.x * blockDim.x + threadIdx.x -> get_global_id(0). The global size is rounded up
// to a whole number of work-groups, so the surplus work-items return at once.
__kernel void jacobi_simple(__global const float* restrict sw, __global const float* restrict s,
                            __global const float* restrict se, __global const float* restrict w,
                            __global const float* restrict c, __global const float* restrict e,
                            __global const float* restrict nw, __global const float* restrict n,
                            __global const float* restrict ne, __global const float* restrict f,
                            __global const float* restrict x, __global float* restrict x_new,
                            const int nx, const int nodes, const int ghost, const float omega) {
  const int k = (int)get_global_id(0);
  if (k >= nodes) return;
  __global const float* xk = x + ghost + k;  // xk[0] is unknown k, xk[-nx] the one below it
  const float offdiag = sw[k] * xk[-nx - 1] + s[k] * xk[-nx] + se[k] * xk[-nx + 1]
                      + w[k] * xk[-1] + e[k] * xk[1]
                      + nw[k] * xk[nx - 1] + n[k] * xk[nx] + ne[k] * xk[nx + 1];
  x_new[ghost + k] = (1.0f - omega) * xk[0] + omega * (f[k] - offdiag) / c[k];
}
