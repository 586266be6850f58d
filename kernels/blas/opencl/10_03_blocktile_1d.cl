// Chapter 10, step 3 in OpenCL C 1.2: the design of kernels/blas/cuda/10_03_blocktile_1d.cu (each
// work-item loads one element of each tile and computes TM elements of a column of C), in a
// work-group of 256 instead of CUDA's 512 blocks: NVIDIA's OpenCL runs work-groups of at most 256.
// With BM = BN the rule "one element of each tile per work-item" gives BM² = 256 TM and BK = 256 / BM:
// a 64 x 64 tile, K in steps of 4, 16 elements per work-item (CUDA's step 3: 8, with K steps of 8).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define BM 64
#define BN 64
#define BK 4
#define TM 16

//! [cl_blocktile_1d]
__kernel __attribute__((reqd_work_group_size(BM * BN / TM, 1, 1)))
void gemm_blocktile_1d(__global const T* a, __global const T* b, __global T* c, int m, int n, int k) {
  __local T as[BM][BK];
  __local T bs[BK][BN];
  const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
  const int t = get_local_id(0);
  const int a_row = t / BK, a_col = t % BK;
  const int b_row = t / BN, b_col = t % BN;
  const int c_col = t % BN;
  const int c_row = t / BN * TM;
  T acc[TM];
  for (int i = 0; i < TM; ++i) acc[i] = 0;
  for (int p0 = 0; p0 < k; p0 += BK) {
    const int ar = row0 + a_row, ac = p0 + a_col, br = p0 + b_row, bc = col0 + b_col;
    as[a_row][a_col] = ar < m && ac < k ? a[ar * k + ac] : (T)0;
    bs[b_row][b_col] = br < k && bc < n ? b[br * n + bc] : (T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int p = 0; p < BK; ++p) {
      const T bv = bs[p][c_col];
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] += as[c_row + i][p] * bv;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int col = col0 + c_col;
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + c_row + i;
    if (row < m && col < n) c[row * n + col] = acc[i];
  }
}
//! [cl_blocktile_1d]
