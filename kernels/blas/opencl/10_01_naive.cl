// Chapter 10, step 1 in OpenCL C 1.2: paper 003's naive multiply (Obr. 9), the port of
// kernels/blas/cuda/10_01_naive.cu line for line: get_global_id(0) is CUDA's
// blockIdx.x * blockDim.x + threadIdx.x (paper Tab. 3). The host rounds the NDRange up to whole
// 16 x 16 work-groups, so work-items past the matrix return at once.
// T from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

//! [cl_naive]
__kernel void gemm_naive(__global const T* a, __global const T* b, __global T* c, int m, int n, int k) {
  const int col = get_global_id(0);
  const int row = get_global_id(1);
  if (row >= m || col >= n) return;
  T sum = 0;
  for (int p = 0; p < k; ++p) sum += a[row * k + p] * b[p * n + col];
  c[row * n + col] = sum;
}
//! [cl_naive]
