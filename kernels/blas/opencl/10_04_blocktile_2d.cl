// Chapter 10, step 4 in OpenCL C 1.2: 8 x 8 elements of C per work-item, a 128 x 128 tile per
// work-group of 256, the port of kernels/blas/cuda/10_04_blocktile_2d.cu.
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS (BM * BN / (TM * TN))

//! [cl_blocktile_2d]
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_blocktile_2d(__global const T* a, __global const T* b, __global T* c, int m, int n, int k) {
  __local T as[BM][BK];
  __local T bs[BK][BN];
  const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
  const int t = get_local_id(0);
  const int c_row = t / (BN / TN) * TM, c_col = t % (BN / TN) * TN;
  T acc[TM][TN];
  T a_reg[TM], b_reg[TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;
  for (int p0 = 0; p0 < k; p0 += BK) {
    for (int e = t; e < BM * BK; e += THREADS) {
      const int r = row0 + e / BK, cc = p0 + e % BK;
      as[e / BK][e % BK] = r < m && cc < k ? a[r * k + cc] : (T)0;
    }
    for (int e = t; e < BK * BN; e += THREADS) {
      const int r = p0 + e / BN, cc = col0 + e % BN;
      bs[e / BN][e % BN] = r < k && cc < n ? b[r * n + cc] : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = as[c_row + i][p];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[p][c_col + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int row = row0 + c_row + i, col = col0 + c_col + j;
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
}
//! [cl_blocktile_2d]
