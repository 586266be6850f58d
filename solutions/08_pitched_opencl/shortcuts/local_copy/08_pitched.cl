// Exercise 08, a shortcut the check must reject: the chapter's own local port
// (kernels/jacobi/opencl/08_02_local.cl) under the exercise's name, its tile a static __local array
// since the exercise's host passes no __local argument. It computes the iteration, but the exercise
// is to port 05_pitched.cu, which reads x from global memory without a tile.
#define MAX_LOCAL 256  // the check's work-groups are 64 and 96 work-items
__kernel void jacobi_pitched(__global const float* sw, __global const float* s,
                             __global const float* se, __global const float* w,
                             __global const float* c, __global const float* e,
                             __global const float* nw, __global const float* n,
                             __global const float* ne, __global const float* f,
                             __global const float* x, __global float* x_new,
                             const int nx, const int ny, const int pitch, const int origin, const float omega) {
  __local float tile[3 * (MAX_LOCAL + 2)];  // 3 rows of (local size + 2) values
  const int lsize = (int)get_local_size(0);
  const int lid = (int)get_local_id(0);
  const int width = lsize + 2;
  const int i0 = (int)get_group_id(0) * lsize;
  const int i = i0 + lid;
  for (int j = (int)get_group_id(1); j < ny; j += (int)get_num_groups(1)) {  // the same j for the whole group
    for (int r = 0; r < 3; ++r) {
      __global const float* row = x + origin + (j - 1 + r) * pitch;
      for (int t = lid; t < width; t += lsize) {
        const int col = i0 - 1 + t;
        tile[r * width + t] = col <= nx ? row[col] : 0.0f;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < nx) {
      const int k = origin + j * pitch + i;
      __local const float* below = tile + lid + 1;  // centre column of row j-1
      __local const float* mid = below + width;
      __local const float* above = mid + width;
      const float offdiag = sw[k] * below[-1] + s[k] * below[0] + se[k] * below[1]
                          + w[k] * mid[-1] + e[k] * mid[1]
                          + nw[k] * above[-1] + n[k] * above[0] + ne[k] * above[1];
      x_new[k] = (1.0f - omega) * mid[0] + omega * (f[k] - offdiag) / c[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the next row's loads overwrite the tile
  }
}
