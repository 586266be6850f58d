// Chapter 09, past the paper: the matrices as flat arrays, 16 bytes (T16: float4, double2, int4)
// per load and store, a grid-stride loop over the vectors and a scalar tail for the last
// rows * cols % width elements. The port of kernels/matrix/cuda/09_05_add_vec4.cu. OpenCL C adds
// vectors element by element with +. Buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN (128 bytes or
// more), as the vector accesses need.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

//! [cl_add_vec4]
__kernel void add_vec4(__global const T* a, __global const T* b, __global T* c, int rows, int cols) {
  const long n = (long)rows * cols;
  const long vectors = n / vec_step(T16);
  const long first = get_global_id(0);
  const long stride = get_global_size(0);
  __global const T16* va = (__global const T16*)a;
  __global const T16* vb = (__global const T16*)b;
  __global T16* vc = (__global T16*)c;
  for (long v = first; v < vectors; v += stride) vc[v] = va[v] + vb[v];
  const long tail = vectors * vec_step(T16) + first;
  if (tail < n) c[tail] = a[tail] + b[tail];
}
//! [cl_add_vec4]
