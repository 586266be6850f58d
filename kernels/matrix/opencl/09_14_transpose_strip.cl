// Chapter 09, past the paper: the OpenCL counterpart of kernels/matrix/cuda/09_14_transpose_tma.cu.
// OpenCL has no TMA and no asynchronous copy that a driver must run in the background
// (async_work_group_copy may be, and on GPUs usually is, the work-items' own loads): the only
// place a work-group can keep bytes in flight is the work-items' registers. What step 14 gains
// from TMA, more bytes in flight per barrier and longer runs of reads, is had here the portable way:
// a work-group moves a strip of 64 rows x 512 bytes of the input (two 64 x 64 float or int tiles,
// one of doubles) at a time: every work-item issues the loads of both tiles (eight 16-byte vectors)
// before the one barrier, and the reads run 512 bytes along each row. Each tile moves as in 09_12
// (padded local tiles, work-groups of 8 x 4 x 8), the strips in 09_12's panels of 2048 columns.
// A strip the matrix cuts, and every strip when rows or cols is not a multiple of the vector
// width, takes 09_10's element loops, tile by tile.
// T (T16: 16 bytes of T) from the build options; doubles need cl_khr_fp64 (paper 003, sec. 6.6).
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define TILE 64
#define WARP_VECTORS 8
#define WARP_ROWS 4
#define WARPS 8
#define WIDTH (16 / (int)sizeof(T))                     // elements per vector
#define ACROSS (TILE / (WIDTH * WARP_VECTORS))          // warps along a tile row
#define ROWS_PER_PASS (WARP_ROWS * WARPS / ACROSS)      // tile rows per pass
#define PASSES (TILE / ROWS_PER_PASS)                   // vectors per work-item per tile
#define TILES (8 / (int)sizeof(T))                      // tiles per strip: 512 bytes of a row
#define PANEL_STRIPS (2048 / (TILES * TILE))            // strips per panel: 09_12's 32 tile columns

// A vector and its elements.
typedef union {
  T16 v;
  T e[16 / sizeof(T)];
} Pack16;

//! [cl_transpose_strip]
// The strip (across, down) of group `id` in a strips_x x strips_y grid, down panels as in 09_12.
int2 panel_strip(int id, int strips_x, int strips_y) {
  const int per_panel = PANEL_STRIPS * strips_y;
  const int panel = id / per_panel, first = panel * PANEL_STRIPS, at = id - panel * per_panel;
  const int width = min(PANEL_STRIPS, strips_x - first);
  return (int2)(first + at % width, at / width);
}

__kernel __attribute__((reqd_work_group_size(WARP_VECTORS, WARP_ROWS, WARPS)))
void transpose_strip(__global const T* in, __global T* out, int rows, int cols) {
  __local T tile[TILES][TILE][TILE + 1];
  const int strips_x = (int)get_num_groups(0);
  const int2 s = panel_strip((int)get_group_id(1) * strips_x + (int)get_group_id(0), strips_x, (int)get_num_groups(1));
  const int row0 = s.y * TILE, strip0 = s.x * TILES * TILE;  // the strip's corner in `in`
  const int lz = get_local_id(2);
  if (row0 + TILE <= rows && strip0 + TILES * TILE <= cols && rows % WIDTH == 0 && cols % WIDTH == 0) {
    const int x = WIDTH * (get_local_id(0) + WARP_VECTORS * (lz % ACROSS));  // first column in a tile
    const int y = get_local_id(1) + WARP_ROWS * (lz / ACROSS);                // first row
    Pack16 v[TILES][PASSES];  // every load of the work-item, of every tile, issued before the first is used
    for (int t = 0; t < TILES; ++t)
      for (int p = 0; p < PASSES; ++p)
        v[t][p].v = *(__global const T16*)&in[(row0 + y + p * ROWS_PER_PASS) * cols + strip0 + t * TILE + x];
    for (int t = 0; t < TILES; ++t)
      for (int p = 0; p < PASSES; ++p)
        for (int k = 0; k < WIDTH; ++k) tile[t][y + p * ROWS_PER_PASS][x + k] = v[t][p].e[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < TILES; ++t)
      for (int p = 0; p < PASSES; ++p) {
        const int ly = y + p * ROWS_PER_PASS;  // row of out = column of in: strip0 + t * TILE + ly
        Pack16 w;
        for (int k = 0; k < WIDTH; ++k) w.e[k] = tile[t][x + k][ly];
        *(__global T16*)&out[(strip0 + t * TILE + ly) * rows + row0 + x] = w.v;
      }
  } else {  // 09_10's loops, 64 x 4 work-items, tile by tile
    const int lx = get_local_id(0) + WARP_VECTORS * (get_local_id(1) + WARP_ROWS * (lz % 2));
    for (int t = 0; t < TILES; ++t) {
      const int col0 = strip0 + t * TILE;
      for (int ly = lz / 2; ly < TILE; ly += WARPS / 2)
        if (col0 + lx < cols && row0 + ly < rows) tile[t][lx][ly] = in[(row0 + ly) * cols + col0 + lx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < TILES; ++t) {
      const int col0 = strip0 + t * TILE;
      for (int ly = lz / 2; ly < TILE; ly += WARPS / 2)
        if (row0 + lx < rows && col0 + ly < cols) out[(col0 + ly) * rows + row0 + lx] = tile[t][ly][lx];
    }
  }
}
//! [cl_transpose_strip]
