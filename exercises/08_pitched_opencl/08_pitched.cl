// Exercise 08: port kernels/jacobi/cuda/05_pitched.cu to OpenCL C 1.2 (see README.md).
//
// The host side is done (chapters/08_opencl_port/opencl_variants.cpp, Layout::Pitched): every
// array holds ny rows of `pitch` floats plus two zero ghost rows above and below, element (i, j)
// of every array at index origin + j*pitch + i. The NDRange is 2D: dimension 0 covers the columns
// (rounded up to whole work-groups of 64), dimension 1 the rows, with at most 65535 work-groups;
// when ny is larger, each work-item must handle rows j, j + G, j + 2G, ... (G = groups in dim 1).
//
// Until this kernel writes x_new, the check fails: the unknowns of x_new start as NaN.
__kernel void jacobi_pitched(__global const float* sw, __global const float* s,
                             __global const float* se, __global const float* w,
                             __global const float* c, __global const float* e,
                             __global const float* nw, __global const float* n,
                             __global const float* ne, __global const float* f,
                             __global const float* x, __global float* x_new,
                             const int nx, const int ny, const int pitch, const int origin, const float omega) {
  // TODO(exercise)
}
