// Chapter 10, step 6 in OpenCL C 1.2: the port of kernels/blas/cuda/10_06_warptile.cu. The same loads
// and tiles as 10_05_vectorized.cl; a work-item's 8 x 8 elements of C are placed as in the CUDA kernel:
// groups of 32 work-items ("warps": OpenCL 1.2 cannot ask for the SIMD width, so this assumes
// NVIDIA's 32, which only speed depends on) cover 32 x 64 warp tiles, each work-item 2 x 2 blocks
// of 4 x 4, 16 rows and 32 columns apart. Compiled after vector_load.cl (load_segment; it also
// enables cl_khr_fp64 for double).

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS (BM * BN / (TM * TN))
#define WARP_M 32
#define WARP_N 64
#define ROW_OF(i) ((i) / 4 * 16 + (i) % 4)
#define COL_OF(j) ((j) / 4 * 32 + (j) % 4)

//! [cl_warptile]
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_warptile(__global const T* a, __global const T* b, __global T* c, int m, int n, int k) {
  __local TV as_v[BK * BM / L];  // vector-typed, so 16-byte aligned; used as T as[BK][BM] (transposed)
  __local TV bs_v[BK * BN / L];  // used as T bs[BK][BN]
  __local T (*as)[BM] = (__local T (*)[BM])as_v;
  __local T (*bs)[BN] = (__local T (*)[BN])bs_v;
  const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
  const int t = get_local_id(0);
  const int warp = t / 32, lane = t % 32;
  const int c_row = warp / (BN / WARP_N) * WARP_M + lane / 8 * 4, c_col = warp % (BN / WARP_N) * WARP_N + lane % 8 * 4;
  T acc[TM][TN];
  T a_reg[TM], b_reg[TN];
  T seg[L] __attribute__((aligned(16)));
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;
  for (int p0 = 0; p0 < k; p0 += BK) {
    for (int e = t; e < BM * BK / L; e += THREADS) {
      const int r = e / (BK / L), cc = e % (BK / L) * L;
      const int row = row0 + r;
      load_segment(a + (row < m ? row * k : 0), p0 + cc, row < m ? k - (p0 + cc) : 0, seg);
      for (int l = 0; l < L; ++l) as[cc + l][r] = seg[l];
    }
    for (int e = t; e < BK * BN / L; e += THREADS) {
      const int r = e / (BN / L), cc = e % (BN / L) * L;
      const int row = p0 + r;
      load_segment(b + (row < k ? row * n : 0), col0 + cc, row < k ? n - (col0 + cc) : 0, seg);
      for (int l = 0; l < L; ++l) bs[r][cc + l] = seg[l];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_reg[i] = as[p][c_row + ROW_OF(i)];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_reg[j] = bs[p][c_col + COL_OF(j)];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int row = row0 + c_row + ROW_OF(i), col = col0 + c_col + COL_OF(j);
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
}
//! [cl_warptile]
