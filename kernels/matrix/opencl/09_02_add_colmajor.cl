// Chapter 09 (paper 003, Obr. 15): 09_01_add_rowmajor.cl with the two NDRange dimensions swapped:
// get_global_id(0) walks down a column, so neighbouring work-items touch elements `cols` apart.
// The paper found this order slower than its CPU in OpenCL. The port of
// kernels/matrix/cuda/09_02_add_colmajor.cu.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

//! [cl_add_colmajor]
__kernel void add_colmajor(__global const T* a, __global const T* b, __global T* c, int rows, int cols) {
  const int row = get_global_id(0);
  const int col = get_global_id(1);
  if (col >= cols || row >= rows) return;
  const int i = row * cols + col;
  c[i] = a[i] + b[i];
}
//! [cl_add_colmajor]
