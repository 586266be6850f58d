// Chapter 10, step 10 in OpenCL C 1.2: the port of kernels/blas/cuda/10_10_prefetch.cu. The same K
// loop, line for line: two buffers of the tiles in __local memory and one barrier per tile step;
// fragments of slice p + 1 loaded from __local memory into registers while slice p's TM x TN
// multiply-adds run; the next tile loaded from global memory into registers when a step starts and
// stored to the other buffer when its arithmetic is done; A stored transposed into a padded tile;
// grouped work-groups; C written 16 bytes at a time where rows are aligned. What differs:
// - B travels as A does, through registers (load_b, store_b): OpenCL C 1.2 has no cp.async, and its
//   async_work_group_copy copies whole runs of a row, with no zeros past the matrix's edge (the
//   chapter's README says what else it lacks). B's load so still has a whole step to land in, at the
//   price of its B_SEGS x L values per work-item held in registers through the step.
// - One configuration per type, the CUDA kernel's first (its default launch): float 128 x 256 with
//   8 x 16 per work-item, double 128 x 128 with 8 x 8 (its only one). OpenCL C has no templates; the
//   tiles are macros, and the host's tile per type (opencl_variants.cpp) must match them.
// - The "warps" are groups of 32 work-items (as in 10_06_warptile.cl: OpenCL 1.2 cannot ask for the
//   SIMD width, so this assumes NVIDIA's 32; elsewhere the result is the same, only the __local
//   memory access pattern changes).
// - The CUDA kernel's lambdas are inline functions here: what they captured is passed to them.
// Compiled after vector_load.cl (load_segment and load16, as the CUDA kernel includes
// vector_load.hpp; it also enables cl_khr_fp64 for double).

#define BM 128
#ifdef USE_FP64
#define BN 128
#define TN 8
#else
#define BN 256
#define TN 16
#endif
#define TM 8
#define BK 8
#define THREADS 256
// The transposed A tile's rows are BM + PAD_A long: the two work-items that store the two halves
// of one row of A (a_c = 0 and a_c = 4 in float) would hit one bank without it (rows of BM, a
// multiple of 32 banks), a 2-way conflict on every store; with it the even work-items of a warp
// store to 16 banks and the odd ones to the other 16. 4 elements (16 bytes in float, 32 in double),
// so every row still starts on 16 bytes for the fragments' 16-byte loads.
#define PAD_A 4
// Tile rows per group of the grouped order (grouped_tile).
#define GROUP_M 8
#define WM (4 * TM)  // the warp tile: 4 x 8 work-items of TM x TN
#define WN (8 * TN)
#define A_SEGS (BM * BK / L / THREADS)  // 16-byte segments per work-item
#define B_SEGS (BK * BN / L / THREADS)
#define A_ROW_STRIDE (THREADS / (BK / L))  // rows between a work-item's segments
#define B_ROW_STRIDE (THREADS / (BN / L))
// A work-item's i-th row and j-th column from its first: blocks of 4, 16 rows or 32 columns apart.
#define ROW_OF(i) ((i) / 4 * 16 + (i) % 4)
#define COL_OF(j) ((j) / 4 * 32 + (j) % 4)

// The CUDA kernel's static_asserts (OpenCL C 1.2 has none; the preprocessor checks the macros).
#if BM / WM * (BN / WN) * 32 != THREADS || TM % 4 != 0 || TN % 4 != 0
#error "8 warps of 4 x 8 work-items"
#endif
#if A_SEGS < 1 || B_SEGS < 1 || THREADS % (BN / L) != 0 || BK % 2 != 0
#error "whole segments per work-item"
#endif

//! [cl_grouped_tile]
// Grouped order: the tile (tile_m, tile_n) of C that work-group (gx, gy) of tiles_n x tiles_m
// computes. Work-groups numbered row by row walk each group of GROUP_M tile rows column by column,
// so the ones running at the same time read few rows of A and few columns of B (from L2 on a GPU).
// The last group may have fewer rows. Every tile is computed by exactly one work-group.
inline void grouped_tile(int gx, int gy, int tiles_n, int tiles_m, int* tile_m, int* tile_n) {
  const int id = gy * tiles_n + gx;
  const int per_group = GROUP_M * tiles_n;
  const int group = id / per_group, first = group * GROUP_M;
  const int rows = tiles_m - first < GROUP_M ? tiles_m - first : GROUP_M;
  const int in_group = id - group * per_group;
  *tile_m = first + in_group % rows;
  *tile_n = in_group / rows;
}
//! [cl_grouped_tile]

// A's tile at column p0 into registers: rows a_r + j A_ROW_STRIDE of the tile at row0, column a_c;
// zeros outside A.
inline void load_a(__global const T* a, int m, int k, int row0, int p0, int a_r, int a_c, T a_next[A_SEGS][L]) {
#pragma unroll
  for (int j = 0; j < A_SEGS; ++j) {
    const int row = row0 + a_r + j * A_ROW_STRIDE;
    load_segment(a + (row < m ? row * k : 0), p0 + a_c, row < m ? k - (p0 + a_c) : 0, a_next[j]);
  }
}

// ... and from registers into a buffer of the transposed tile, as[p][r] = A(row0 + r, p0 + p).
inline void store_a(__local T (*as)[BM + PAD_A], int a_r, int a_c, T a_next[A_SEGS][L]) {
#pragma unroll
  for (int j = 0; j < A_SEGS; ++j)
#pragma unroll
    for (int l = 0; l < L; ++l) as[a_c + l][a_r + j * A_ROW_STRIDE] = a_next[j][l];
}

// B's tile at row p0 into registers: rows b_r + j B_ROW_STRIDE of it, columns b_col ... b_col + L - 1
// of B; zeros outside B. (The CUDA kernel's copy_b: its cp.async puts them straight into the buffer.)
inline void load_b(__global const T* b, int n, int k, int p0, int b_r, int b_col, T b_next[B_SEGS][L]) {
#pragma unroll
  for (int j = 0; j < B_SEGS; ++j) {
    const int row = p0 + b_r + j * B_ROW_STRIDE;
    load_segment(b + (row < k ? row * n : 0), b_col, row < k ? n - b_col : 0, b_next[j]);
  }
}

// ... and from registers into a buffer of the tile, 16 bytes at a time.
inline void store_b(__local T (*bs)[BN], int b_r, int b_c, T b_next[B_SEGS][L]) {
#pragma unroll
  for (int j = 0; j < B_SEGS; ++j) *(__local TV*)&bs[b_r + j * B_ROW_STRIDE][b_c] = *(TV*)b_next[j];
}

// Slice p of a buffer: this work-item's TM values of A and TN of B, 16 bytes at a time.
inline void load_fragments(__local T (*as)[BM + PAD_A], __local T (*bs)[BN], int p, int c_row, int c_col, T a_f[TM],
                           T b_f[TN]) {
#pragma unroll
  for (int i = 0; i < TM; i += L) load16(&as[p][c_row + ROW_OF(i)], &a_f[i]);
#pragma unroll
  for (int j = 0; j < TN; j += L) load16(&bs[p][c_col + COL_OF(j)], &b_f[j]);
}

//! [cl_prefetch]
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_prefetch(__global const T* a, __global const T* b, __global T* c, int m, int n, int k) {
  __local TV as_v[2 * BK * (BM + PAD_A) / L];  // vector-typed, so 16-byte aligned; used as T as[2][BK][BM + PAD_A]
  __local TV bs_v[2 * BK * BN / L];            // used as T bs[2][BK][BN]
  __local T (*as)[BK][BM + PAD_A] = (__local T (*)[BK][BM + PAD_A])as_v;  // transposed: as[s][p][r] is A(row0 + r, p0 + p)
  __local T (*bs)[BK][BN] = (__local T (*)[BK][BN])bs_v;
  int tile_m, tile_n;
  grouped_tile(get_group_id(0), get_group_id(1), get_num_groups(0), get_num_groups(1), &tile_m, &tile_n);
  const int row0 = tile_m * BM, col0 = tile_n * BN;
  const int t = get_local_id(0);
  const int warp = t / 32, lane = t % 32;
  const int w_row = warp / (BN / WN) * WM, w_col = warp % (BN / WN) * WN;  // the warp's tile
  const int c_row = w_row + lane / 8 * 4, c_col = w_col + lane % 8 * 4;  // + 16 i / 4 and + 32 j / 4
  // Each work-item's segments, computed once: A rows a_r + j A_ROW_STRIDE at column a_c of the tile,
  // B rows b_r + j B_ROW_STRIDE at column b_c.
  const int a_r = t / (BK / L), a_c = t % (BK / L) * L;
  const int b_r = t / (BN / L), b_c = t % (BN / L) * L, b_col = col0 + b_c;
  T a_next[A_SEGS][L] __attribute__((aligned(16)));  // the next A tile on its way: global memory -> here -> __local
  T b_next[B_SEGS][L] __attribute__((aligned(16)));  // and the next B tile (CUDA: cp.async, no registers)
  T acc[TM][TN];
  T a_frag[2][TM], b_frag[2][TN];  // slice p in one, slice p + 1 arriving in the other
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;
  //! [cl_prefetch_loop]
  const int steps = (k + BK - 1) / BK;
  load_a(a, m, k, row0, 0, a_r, a_c, a_next);
  load_b(b, n, k, 0, b_r, b_col, b_next);
  store_a(as[0], a_r, a_c, a_next);
  store_b(bs[0], b_r, b_c, b_next);
  barrier(CLK_LOCAL_MEM_FENCE);
  load_fragments(as[0], bs[0], 0, c_row, c_col, a_frag[0], b_frag[0]);
  int s = 0;  // the buffer of tile `step`
  for (int step = 0; step < steps; ++step) {
    const bool more = step + 1 < steps;  // the same for every work-item of the group
    if (more) {  // tile step + 1 into registers; stored to the other buffer after this step's arithmetic
      load_a(a, m, k, row0, (step + 1) * BK, a_r, a_c, a_next);
      load_b(b, n, k, (step + 1) * BK, b_r, b_col, b_next);
    }
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      if (p + 1 < BK) {  // slice p + 1 while slice p computes
        load_fragments(as[s], bs[s], p + 1, c_row, c_col, a_frag[(p + 1) % 2], b_frag[(p + 1) % 2]);
      } else if (more) {
        store_a(as[s ^ 1], a_r, a_c, a_next);  // buffer s ^ 1 was last read before the previous barrier
        store_b(bs[s ^ 1], b_r, b_c, b_next);
        barrier(CLK_LOCAL_MEM_FENCE);  // everyone's stores are visible, and everyone is done with buffer s
        load_fragments(as[s ^ 1], bs[s ^ 1], 0, c_row, c_col, a_frag[0], b_frag[0]);  // slice 0 of tile step + 1
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[p % 2][i] * b_frag[p % 2][j];
    }
    s ^= 1;
  }
  //! [cl_prefetch_loop]
  // C: 16 bytes at a time where rows are aligned (n a multiple of L, so a segment of the tile that
  // starts inside C is inside as a whole), element by element otherwise.
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + c_row + ROW_OF(i);
#pragma unroll
    for (int j = 0; j < TN; j += L) {
      const int col = col0 + c_col + COL_OF(j);
      if (row >= m) continue;
      if (ALIGNED && col < n) {
        TV v;
        T* lanes = (T*)&v;
#pragma unroll
        for (int l = 0; l < L; ++l) lanes[l] = acc[i][j + l];
        *(__global TV*)(c + row * n + col) = v;
      } else if (!ALIGNED) {
#pragma unroll
        for (int l = 0; l < L; ++l)
          if (col + l < n) c[row * n + col + l] = acc[i][j + l];
      }
    }
  }
}
//! [cl_prefetch]
