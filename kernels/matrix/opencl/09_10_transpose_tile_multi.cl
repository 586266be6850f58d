// Chapter 09, past the paper: 09_09_transpose_tile_padded.cl with work-groups of 32 x 8 for the same
// 32 x 32 tile, four elements per work-item. The port of kernels/matrix/cuda/09_10_transpose_tile_multi.cu.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define TILE 32
#define ROWS_PER_PASS 8

//! [cl_transpose_tile_multi]
__kernel __attribute__((reqd_work_group_size(TILE, ROWS_PER_PASS, 1)))
void transpose_tile_multi(__global const T* in, __global T* out, int rows, int cols) {
  __local T tile[TILE][TILE + 1];
  const int gx = get_group_id(0) * TILE + get_local_id(0);  // column of in
  const int lx = get_local_id(0);
  for (int ly = get_local_id(1); ly < TILE; ly += ROWS_PER_PASS) {
    const int gy = get_group_id(1) * TILE + ly;  // row of in
    if (gx < cols && gy < rows) tile[lx][ly] = in[gy * cols + gx];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int ox = get_group_id(1) * TILE + lx;  // column of out = row of in
  for (int ly = get_local_id(1); ly < TILE; ly += ROWS_PER_PASS) {
    const int oy = get_group_id(0) * TILE + ly;  // row of out = column of in
    if (ox < rows && oy < cols) out[oy * rows + ox] = tile[ly][lx];
  }
}
//! [cl_transpose_tile_multi]
