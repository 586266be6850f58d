// Weighted Jacobi with x staged in local memory: the OpenCL port of chapter 06's
// kernels/jacobi/cuda/06_01_shared.cu (the paper's "CUDA Shared", paper 000, sec. 6.4, Figs. 15-16).
//
// Layout: pitched, as the CUDA kernel's (kernels/jacobi/cuda/05_pitched.cu): every array holds
// ny rows of `pitch` floats plus two zero ghost rows above and below (kPitchedGhostRows,
// problems/jacobi/include/gpgpu/jacobi/layouts.hpp); element (i, j) of every array is at
// origin + j*pitch + i, origin = 2*pitch. OpenCL has no cudaMallocPitch: the host
// chooses the pitch itself (nx rounded up to CL_DEVICE_MEM_BASE_ADDR_ALIGN) and passes the whole
// buffer and `origin` where the CUDA solver passes a pointer to element (0, 0). (A sub-buffer from
// clCreateSubBuffer, OpenCL 1.1+, could start there too; the offset keeps one buffer per array.)
//
// A 2D NDRange of 1D work-groups: group (gx, gy) updates columns i0 .. i0+L-1 (L = local size) of
// rows gy, gy + G, ... (G = number of groups in dimension 1, capped at 65535 like CUDA's grid).
// For each row the group copies x's rows j-1, j, j+1, columns i0-1 .. i0+L, into the local tile
// with consecutive (coalesced) reads, waits at a barrier, computes from the tile, and waits again
// before the next row overwrites the tile.
//
// CUDA -> OpenCL, line by line:
//   extern __shared__ float tile[];           -> __local float* tile (a kernel argument; the host
//                                               sizes it with cl::Local(bytes), as CUDA's third
//                                               launch parameter sizes dynamic shared memory)
//   blockDim.x / blockIdx.x / threadIdx.x     -> get_local_size(0) / get_group_id(0) / get_local_id(0)
//   blockIdx.y / gridDim.y                    -> get_group_id(1) / get_num_groups(1)
//   __syncthreads()                           -> barrier(CLK_LOCAL_MEM_FENCE)
//
// Every work-item must reach every barrier. The trip count of the row loop is the same for the
// whole group, and work-items beyond column nx-1 (the last group of a row is partly empty) still
// load their share of the tile and only skip the store. A version that returned early for them
// left most unknowns unwritten on PoCL's CPU device (tried; see chapters/08_opencl_port/README.md).
//! [kernel]
__kernel void jacobi_local(__global const float* sw, __global const float* s,
                           __global const float* se, __global const float* w,
                           __global const float* c, __global const float* e,
                           __global const float* nw, __global const float* n,
                           __global const float* ne, __global const float* f,
                           __global const float* x, __global float* x_new,
                           const int nx, const int ny, const int pitch, const int origin, const float omega,
                           __local float* tile) {  // 3 rows of (local size + 2) values
  const int lsize = (int)get_local_size(0);
  const int lid = (int)get_local_id(0);
  const int width = lsize + 2;
  const int i0 = (int)get_group_id(0) * lsize;
  const int i = i0 + lid;
  for (int j = (int)get_group_id(1); j < ny; j += (int)get_num_groups(1)) {  // the same j for the whole group
    // Columns -1 .. nx exist in every row (ghost rows, pitch padding); beyond nx the tile holds 0.
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
//! [kernel]
