// Exercise 08, worked answer: kernels/jacobi/cuda/05_pitched.cu in OpenCL C 1.2.
//
//   blockIdx.x * blockDim.x + threadIdx.x   -> get_global_id(0)
//   blockIdx.y, gridDim.y                   -> get_group_id(1), get_num_groups(1)
//   a.x + k with a.x at element (0, 0)      -> x + k with k counted from the buffer's start
//                                              (origin + j*pitch + i): the host passes whole
//                                              buffers, as for the chapter's local port (a
//                                              sub-buffer could start at (0, 0) instead)
__kernel void jacobi_pitched(__global const float* sw, __global const float* s,
                             __global const float* se, __global const float* w,
                             __global const float* c, __global const float* e,
                             __global const float* nw, __global const float* n,
                             __global const float* ne, __global const float* f,
                             __global const float* x, __global float* x_new,
                             const int nx, const int ny, const int pitch, const int origin, const float omega) {
  const int i = (int)get_global_id(0);
  if (i >= nx) return;  // no barrier in this kernel, so surplus work-items may leave at once
  for (int j = (int)get_group_id(1); j < ny; j += (int)get_num_groups(1)) {  // loops only when ny > 65535
    const int k = origin + j * pitch + i;
    __global const float* xk = x + k;
    const float offdiag = sw[k] * xk[-pitch - 1] + s[k] * xk[-pitch] + se[k] * xk[-pitch + 1]
                        + w[k] * xk[-1] + e[k] * xk[1]
                        + nw[k] * xk[pitch - 1] + n[k] * xk[pitch] + ne[k] * xk[pitch + 1];
    x_new[k] = (1.0f - omega) * xk[0] + omega * (f[k] - offdiag) / c[k];
  }
}
