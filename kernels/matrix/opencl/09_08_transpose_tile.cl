// Chapter 09: the tile transpose in OpenCL local memory (CUDA's shared memory), which paper 003
// (sec. 6.5.2) could not write: a work-group of 32 x 32 loads a tile of in row by row, stores it
// transposed into __local memory, meets at barrier(CLK_LOCAL_MEM_FENCE) (CUDA: __syncthreads()),
// and writes it row by row to the mirrored place, get_group_id(0) and (1) swapped. The port of
// kernels/matrix/cuda/09_08_transpose_tile.cu, line for line. reqd_work_group_size tells the
// compiler the one work-group shape the kernel is written for (the host launches exactly that).
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define TILE 32

//! [cl_transpose_tile]
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_tile(__global const T* in, __global T* out, int rows, int cols) {
  __local T tile[TILE][TILE];
  const int gx = get_global_id(0);  // column of in
  const int gy = get_global_id(1);  // row of in
  const int lx = get_local_id(0), ly = get_local_id(1);
  if (gx < cols && gy < rows) tile[lx][ly] = in[gy * cols + gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int ox = get_group_id(1) * TILE + lx;  // group indices swapped: column of out = row of in
  const int oy = get_group_id(0) * TILE + ly;  // row of out = column of in
  if (ox < rows && oy < cols) out[oy * rows + ox] = tile[ly][lx];
}
//! [cl_transpose_tile]
