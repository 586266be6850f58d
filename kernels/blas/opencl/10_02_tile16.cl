// Chapter 10, step 2 in OpenCL C 1.2: the paper's 16 x 16 tile (Obr. 10) in __local memory (CUDA's
// shared memory), the port of kernels/blas/cuda/10_02_tile16.cu: barrier(CLK_LOCAL_MEM_FENCE) is
// __syncthreads(). Every work-item of the group reaches both barriers, those outside C included.
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define TILE 16

//! [cl_tile16]
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_tile16(__global const T* a, __global const T* b, __global T* c, int m, int n, int k) {
  __local T as[TILE][TILE];
  __local T bs[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int row = get_group_id(1) * TILE + ty;
  const int col = get_group_id(0) * TILE + tx;
  T sum = 0;
  for (int p0 = 0; p0 < k; p0 += TILE) {
    as[ty][tx] = row < m && p0 + tx < k ? a[row * k + p0 + tx] : (T)0;
    bs[ty][tx] = p0 + ty < k && col < n ? b[(p0 + ty) * n + col] : (T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int p = 0; p < TILE; ++p) sum += as[ty][p] * bs[p][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[row * n + col] = sum;
}
//! [cl_tile16]
