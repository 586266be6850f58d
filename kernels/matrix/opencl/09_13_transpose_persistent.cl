// Chapter 09, past the paper: 09_12_transpose_tile_panels.cl with work-groups that stay. The host
// launches as many groups as it expects to be resident at once (a few per compute unit, fewer when
// there are fewer tiles); group g moves tiles g, g + G, g + 2G, ... (G groups) in 09_12's panel order,
// and issues the loads of its next tile right after the barrier that completes the current tile in
// local memory, before it stores the current one. The port of
// kernels/matrix/cuda/09_13_transpose_persistent.cu (its header gives the reasoning); each tile moves
// as in 09_11.
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

// The tile (across, down) of group `id` in a tiles_x x tiles_y grid: the panels of PANEL_TILES tile
// columns one after another, each row by row (the last panel may be narrower).
int2 panel_tile(int id, int tiles_x, int tiles_y) {
  const int per_panel = PANEL_TILES * tiles_y;
  const int panel = id / per_panel, first = panel * PANEL_TILES, at = id - panel * per_panel;
  const int width = min(PANEL_TILES, tiles_x - first);
  return (int2)(first + at % width, at / width);
}

//! [cl_transpose_persistent]
// True when the tile at (row0, col0) takes the 16-byte path (whole, rows whole vectors).
bool vec4_tile(int row0, int col0, int rows, int cols) {
  return row0 + TILE <= rows && col0 + TILE <= cols && rows % WIDTH == 0 && cols % WIDTH == 0;
}

// The work-item's vectors of the tile at (row0, col0), from column x and row y of the tile on.
void load_tile(__global const T* in, int cols, int row0, int col0, int x, int y, Pack16* v) {
  for (int p = 0; p < TILE / ROWS_PER_PASS; ++p)
    v[p].v = *(__global const T16*)&in[(row0 + y + p * ROWS_PER_PASS) * cols + col0 + x];
}

__kernel __attribute__((reqd_work_group_size(WARP_VECTORS, WARP_ROWS, WARPS)))
void transpose_persistent(__global const T* in, __global T* out, int rows, int cols) {
  __local T tile[TILE][TILE + 1];
  const int tiles_x = (cols + TILE - 1) / TILE, tiles_y = (rows + TILE - 1) / TILE, tiles = tiles_x * tiles_y;
  const int step = (int)get_num_groups(0);
  const int lz = get_local_id(2);
  const int x = WIDTH * (get_local_id(0) + WARP_VECTORS * (lz % ACROSS));  // first column (vector path)
  const int y = get_local_id(1) + WARP_ROWS * (lz / ACROSS);                // first row
  const int lx = get_local_id(0) + WARP_VECTORS * (get_local_id(1) + WARP_ROWS * (lz % 2));  // element path
  int id = (int)get_group_id(0);
  if (id >= tiles) return;  // the whole group
  int2 t = panel_tile(id, tiles_x, tiles_y);
  Pack16 next[TILE / ROWS_PER_PASS];  // the group's next tile on its way from global memory
  if (vec4_tile(t.y * TILE, t.x * TILE, rows, cols)) load_tile(in, cols, t.y * TILE, t.x * TILE, x, y, next);
  for (; id < tiles; id += step) {
    const int row0 = t.y * TILE, col0 = t.x * TILE;  // the tile's corner in `in`
    const bool vectors = vec4_tile(row0, col0, rows, cols);
    if (vectors) {
      for (int p = 0; p < TILE / ROWS_PER_PASS; ++p)
        for (int k = 0; k < WIDTH; ++k) tile[y + p * ROWS_PER_PASS][x + k] = next[p].e[k];
    } else {  // 09_10's loops, 64 x 4 work-items
      for (int ly = lz / 2; ly < TILE; ly += WARPS / 2)
        if (col0 + lx < cols && row0 + ly < rows) tile[lx][ly] = in[(row0 + ly) * cols + col0 + lx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (id + step < tiles) {  // the next tile's loads, issued before this tile's stores
      t = panel_tile(id + step, tiles_x, tiles_y);
      if (vec4_tile(t.y * TILE, t.x * TILE, rows, cols)) load_tile(in, cols, t.y * TILE, t.x * TILE, x, y, next);
    }
    if (vectors) {
      for (int p = 0; p < TILE / ROWS_PER_PASS; ++p) {
        const int ly = y + p * ROWS_PER_PASS;  // row of out = column of in: col0 + ly
        Pack16 w;
        for (int k = 0; k < WIDTH; ++k) w.e[k] = tile[x + k][ly];
        *(__global T16*)&out[(col0 + ly) * rows + row0 + x] = w.v;
      }
    } else {
      for (int ly = lz / 2; ly < TILE; ly += WARPS / 2)
        if (row0 + lx < rows && col0 + ly < cols) out[(col0 + ly) * rows + row0 + lx] = tile[ly][lx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item has read the tile before the next is staged into it
  }
}
//! [cl_transpose_persistent]
