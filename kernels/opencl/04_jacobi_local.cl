// Weighted Jacobi with the work-group's x values staged in local memory: the OpenCL port of the
// paper's "CUDA Shared" kernel (paper 000, sec. 6.4, Figs. 15-16; kernels/cuda/04_jacobi_shared.cu).
//
// The WG_SIZE work-items of a group update the consecutive unknowns first .. first+WG_SIZE-1.
// Their 9-point stencils touch three row segments of x: below (k - nx), level (k) and above
// (k + nx), each one element wider on both sides. The group copies those 3 x (WG_SIZE + 2)
// values into local memory with consecutive (coalesced) reads, waits at a barrier, then reads
// all nine neighbours from local memory. Same layout as 01_jacobi_simple.cl.
//
// CUDA -> OpenCL: __shared__ -> __local; __syncthreads() -> barrier(CLK_LOCAL_MEM_FENCE);
// threadIdx.x -> get_local_id(0); blockIdx.x -> get_group_id(0); blockDim.x -> WG_SIZE, a
// compile-time constant the host passes as -DWG_SIZE=n (reqd_work_group_size makes the launch
// fail with CL_INVALID_WORK_GROUP_SIZE if the host ever passed another local size).
//
// The barrier rule: every work-item of a group must reach the barrier, or the result is undefined
// (some implementations hang, PoCL's work-group loops can silently skip the rest). So work-items
// past the last unknown do not return early: they load their share of the tile like everyone,
// read zeros where the tile would run past the end of x, and only skip the final store.
#ifndef WG_SIZE
#error "build this file with -DWG_SIZE=<work-group size>"
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void jacobi_local(__global const float* restrict sw, __global const float* restrict s,
                  __global const float* restrict se, __global const float* restrict w,
                  __global const float* restrict c, __global const float* restrict e,
                  __global const float* restrict nw, __global const float* restrict n,
                  __global const float* restrict ne, __global const float* restrict f,
                  __global const float* restrict x, __global float* restrict x_new,
                  const int nx, const int nodes, const int ghost, const float omega,
                  const int x_length) {
  __local float tile[3][WG_SIZE + 2];  // rows below, level, above; column i is x[first - 1 + i]
  const int lid = (int)get_local_id(0);
  const int first = (int)get_group_id(0) * WG_SIZE;
  const int k = first + lid;

  for (int row = 0; row < 3; ++row) {
    const int start = ghost + first - 1 + (row - 1) * nx;  // index in x of tile[row][0]; >= 0
    for (int i = lid; i < WG_SIZE + 2; i += WG_SIZE) {      // the first two work-items also load
      const int at = start + i;                              // the two halo columns
      tile[row][i] = at < x_length ? x[at] : 0.0f;           // past the end: only surplus items
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  if (k < nodes) {
    const int i = lid + 1;  // this unknown's column in the tile
    const float offdiag = sw[k] * tile[0][i - 1] + s[k] * tile[0][i] + se[k] * tile[0][i + 1]
                        + w[k] * tile[1][i - 1] + e[k] * tile[1][i + 1]
                        + nw[k] * tile[2][i - 1] + n[k] * tile[2][i] + ne[k] * tile[2][i + 1];
    x_new[ghost + k] = (1.0f - omega) * tile[1][i] + omega * (f[k] - offdiag) / c[k];
  }
}
