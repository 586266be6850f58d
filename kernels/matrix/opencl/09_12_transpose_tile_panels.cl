// Chapter 09, past the paper: 09_11_transpose_tile_vec4.cl with the tiles taken down panels of 32 tile
// columns: work-group number get_group_id(1) * get_num_groups(0) + get_group_id(0) (the order the
// groups start in on NVIDIA's GPUs) moves the tile that panel_tile() gives, so that the groups that run
// at once cover a square of tiles rather than a few rows of them. The port of
// kernels/matrix/cuda/09_12_transpose_tile_panels.cu (its header gives the reasoning); the tile itself
// moves as in 09_11.
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
#define PANEL_TILES 32                                  // tile columns per panel

// A vector and its elements.
typedef union {
  T16 v;
  T e[16 / sizeof(T)];
} Pack16;

//! [cl_transpose_tile_panels]
// The tile (across, down) of group `id` in a tiles_x x tiles_y grid: the panels of PANEL_TILES tile
// columns one after another, each row by row (the last panel may be narrower).
int2 panel_tile(int id, int tiles_x, int tiles_y) {
  const int per_panel = PANEL_TILES * tiles_y;
  const int panel = id / per_panel, first = panel * PANEL_TILES, at = id - panel * per_panel;
  const int width = min(PANEL_TILES, tiles_x - first);
  return (int2)(first + at % width, at / width);
}

__kernel __attribute__((reqd_work_group_size(WARP_VECTORS, WARP_ROWS, WARPS)))
void transpose_tile_panels(__global const T* in, __global T* out, int rows, int cols) {
  __local T tile[TILE][TILE + 1];
  const int tiles_x = (int)get_num_groups(0);
  const int2 t = panel_tile((int)get_group_id(1) * tiles_x + (int)get_group_id(0), tiles_x, (int)get_num_groups(1));
  const int row0 = t.y * TILE, col0 = t.x * TILE;  // the tile's corner in `in`
  const int lz = get_local_id(2);
  if (row0 + TILE <= rows && col0 + TILE <= cols && rows % WIDTH == 0 && cols % WIDTH == 0) {
    const int x = WIDTH * (get_local_id(0) + WARP_VECTORS * (lz % ACROSS));  // first column
    const int y = get_local_id(1) + WARP_ROWS * (lz / ACROSS);                // first row
    Pack16 v[TILE / ROWS_PER_PASS];  // every load of the work-item issued before the first is used
    for (int p = 0; p < TILE / ROWS_PER_PASS; ++p)
      v[p].v = *(__global const T16*)&in[(row0 + y + p * ROWS_PER_PASS) * cols + col0 + x];
    for (int p = 0; p < TILE / ROWS_PER_PASS; ++p)
      for (int k = 0; k < WIDTH; ++k) tile[y + p * ROWS_PER_PASS][x + k] = v[p].e[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int p = 0; p < TILE / ROWS_PER_PASS; ++p) {
      const int ly = y + p * ROWS_PER_PASS;  // row of out = column of in: col0 + ly
      Pack16 w;
      for (int k = 0; k < WIDTH; ++k) w.e[k] = tile[x + k][ly];
      *(__global T16*)&out[(col0 + ly) * rows + row0 + x] = w.v;
    }
  } else {  // 09_10's loops, 64 x 4 work-items
    const int lx = get_local_id(0) + WARP_VECTORS * (get_local_id(1) + WARP_ROWS * (lz % 2));
    for (int ly = lz / 2; ly < TILE; ly += WARPS / 2)
      if (col0 + lx < cols && row0 + ly < rows) tile[lx][ly] = in[(row0 + ly) * cols + col0 + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int ly = lz / 2; ly < TILE; ly += WARPS / 2)
      if (row0 + lx < rows && col0 + ly < cols) out[(col0 + ly) * rows + row0 + lx] = tile[ly][lx];
  }
}
//! [cl_transpose_tile_panels]
