// Chapter 09: 09_08_transpose_tile.cl with one padding element per tile row, tile[TILE][TILE + 1], so
// the column-wise store into local memory hits 32 different banks (on a GPU; a CPU has none). The
// port of kernels/matrix/cuda/09_09_transpose_tile_padded.cu.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define TILE 32

//! [cl_transpose_tile_padded]
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_tile_padded(__global const T* in, __global T* out, int rows, int cols) {
  __local T tile[TILE][TILE + 1];
  const int gx = get_global_id(0);  // column of in
  const int gy = get_global_id(1);  // row of in
  const int lx = get_local_id(0), ly = get_local_id(1);
  if (gx < cols && gy < rows) tile[lx][ly] = in[gy * cols + gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int ox = get_group_id(1) * TILE + lx;  // group indices swapped: column of out = row of in
  const int oy = get_group_id(0) * TILE + ly;  // row of out = column of in
  if (ox < rows && oy < cols) out[oy * rows + ox] = tile[ly][lx];
}
//! [cl_transpose_tile_padded]
