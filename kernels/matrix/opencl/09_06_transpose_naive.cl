// Chapter 09 (paper 003, Obr. 19, whose last index reads "tz" for "ty"): out = in^T, one work-item
// per element, work-groups of 32 x 8; stores along a row of out, loads down a column of in. The
// port of kernels/matrix/cuda/09_06_transpose_naive.cu.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

//! [cl_transpose_naive]
__kernel void transpose_naive(__global const T* in, __global T* out, int rows, int cols) {
  const int x = get_global_id(0);  // column of out = row of in
  const int y = get_global_id(1);  // row of out = column of in
  if (x >= rows || y >= cols) return;
  out[y * rows + x] = in[x * cols + y];
}
//! [cl_transpose_naive]
