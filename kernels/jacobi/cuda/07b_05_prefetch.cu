// Chapter 07b (past the paper): 07b_04_symmetric.cu with the next row's loads issued before this
// row's update. 07b_04's thread loads a row, waits for it, computes and stores, and only then loads
// the next row: between two rows its warp has nothing in flight. Here the loads of row j+1 (its x
// window above, the five stored diagonals and f, the three halo values) are issued at the top of the
// iteration that computes row j, so every warp keeps a row of loads in flight while it computes,
// and a strip may be long (few rows loaded twice by two strips) without the warp idling between rows.
// The update is symmetric_update on the same values: the bits are 07b_04_symmetric.cu's.
#include "launchers.hpp"
#include "row_window.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

/// Everything 07b_04_symmetric.cu's loop loads for row j (k = j*pitch + i0): the x window of row j+1,
/// the five stored diagonals and f of row j, and the halo values E(i0-1, j), NE(i0-1, j), NW(i0+4, j).
struct RowLoads {
  Window above;
  Four c, e, nw, n, ne, f;
  float e_left, ne_left, nw_right;
};

__device__ __forceinline__ RowLoads load_row(const SymmetricArgs& a, int k) {
  return {load_window(a.x + k + a.pitch),
          load4(a.c + k),
          load4(a.e + k),
          load4(a.nw + k),
          load4(a.n + k),
          load4(a.ne + k),
          load4(a.f + k),
          __ldg(a.e + k - 1),
          __ldg(a.ne + k - 1),
          __ldg(a.nw + k + 4)};
}

// Two loaded rows per thread need about 100 registers; two blocks of 256 threads per SM (16 warps,
// each with a row of loads in flight) cap them at 128, so none spill.
//! [kernel]
__global__ void __launch_bounds__(kPrefetchMaxBlock, 2) jacobi_symmetric_prefetch(SymmetricArgs a, int rows_per_thread) {
  const int i0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i0 >= a.nx) return;
  const int p = a.pitch;
  for (int j0 = blockIdx.y * rows_per_thread; j0 < a.ny; j0 += gridDim.y * rows_per_thread) {
    const int j_end = min(j0 + rows_per_thread, a.ny);
    int k = j0 * p + i0;
    Window below = load_window(a.x + k - p);
    Window mid = load_window(a.x + k);
    // Row j0-1's upper couplings are row j0's lower ones (zeros in the ghost row when j0 = 0).
    Four s = load4(a.n + k - p);
    Four sw = shifted_right(load4(a.ne + k - p), __ldg(a.ne + k - p - 1));
    Four se = shifted_left(load4(a.nw + k - p), __ldg(a.nw + k - p + 4));
    RowLoads next = load_row(a, k);
    for (int j = j0; j < j_end; ++j, k += p) {
      const RowLoads row = next;
      if (j + 1 < j_end) next = load_row(a, k + p);  // in flight while this row is computed
      const Four w = shifted_right(row.e, row.e_left);
      float r[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {  // column i0+q is window element q+1
        const Neighbours coupling{sw.v[q], s.v[q], se.v[q], w.v[q], row.e.v[q], row.nw.v[q], row.n.v[q], row.ne.v[q]};
        const Neighbours x{below.v[q], below.v[q + 1], below.v[q + 2], mid.v[q],
                           mid.v[q + 2], row.above.v[q], row.above.v[q + 1], row.above.v[q + 2]};
        const float updated = symmetric_update(coupling, x, mid.v[q + 1], row.c.v[q], row.f.v[q], a.omega);
        r[q] = i0 + q < a.nx ? updated : 0.0f;
      }
      store4(a.x_new + k, r);
      s = row.n;  // this row's upper couplings become the next row's lower ones
      sw = shifted_right(row.ne, row.ne_left);
      se = shifted_left(row.nw, row.nw_right);
      below = mid;
      mid = row.above;
    }
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_symmetric_prefetch(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  const dim3 grid(blocks_for((a.nx + 3) / 4, block), grid_rows(blocks_for(a.ny, rows_per_thread)));
  jacobi_symmetric_prefetch<<<grid, block, 0, stream>>>(a, rows_per_thread);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_symmetric_prefetch");
}

int symmetric_prefetch_blocks_per_sm(int block) {
  int blocks = 0;
  GPGPU_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, jacobi_symmetric_prefetch, block, 0));
  return blocks;
}
#endif

}  // namespace gpgpu::jacobi::cuda
