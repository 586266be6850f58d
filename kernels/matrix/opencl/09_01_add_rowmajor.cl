// Chapter 09 (paper 003, Obr. 12): C = A + B, one work-item per element, work-groups of 32 x 8.
// get_global_id(0) walks along a row, so neighbouring work-items touch neighbouring elements
// (coalesced on a GPU, vectorisable across work-items on a CPU). The port of
// kernels/matrix/cuda/09_01_add_rowmajor.cu; the NDRange is rounded up to whole work-groups, so the
// work-items past the matrix return.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

//! [cl_add_rowmajor]
__kernel void add_rowmajor(__global const T* a, __global const T* b, __global T* c, int rows, int cols) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  if (col >= cols || row >= rows) return;
  const int i = row * cols + col;
  c[i] = a[i] + b[i];
}
//! [cl_add_rowmajor]
