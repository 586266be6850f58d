// Chapter 07b (past the paper): several points per thread. Each thread updates four
// neighbouring columns (one float4) in `rows_per_thread` consecutive rows, walking up the grid:
//  - every diagonal, f and x_new move as 16-byte vectors: a quarter of the load and store
//    instructions of 07b_01_readonly.cu, and each warp request covers 512 contiguous bytes;
//  - the three x rows a row needs stay in registers: going up one row, "mid" becomes "below" and
//    "above" becomes "mid", so each x row is loaded once per thread instead of three times;
//  - no shared memory and no barriers: the two outer neighbours of each row come from the
//    on-chip cache (load_window), where the neighbouring threads' float4 loads just put them.
// Threads stop where their four columns start past the grid (no barrier to wait for them).
#include "launchers.hpp"
#include "row_window.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_multirow(PitchedArgs a, int rows_per_thread) {
  const int i0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (i0 >= a.nx) return;
  const int p = a.pitch;
  const Diagonals& A = a.A;
  for (int j0 = blockIdx.y * rows_per_thread; j0 < a.ny; j0 += gridDim.y * rows_per_thread) {
    const int j_end = min(j0 + rows_per_thread, a.ny);
    int k = j0 * p + i0;
    Window below = load_window(a.x + k - p);
    Window mid = load_window(a.x + k);
    for (int j = j0; j < j_end; ++j, k += p) {
      const Window above = load_window(a.x + k + p);
      const Four sw = load4(A.sw + k), s = load4(A.s + k), se = load4(A.se + k), w = load4(A.w + k),
                 c = load4(A.c + k), e = load4(A.e + k), nw = load4(A.nw + k), n = load4(A.n + k),
                 ne = load4(A.ne + k), f = load4(a.f + k);
      float r[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {  // column i0+q is window element q+1
        const float sum = sw.v[q] * below.v[q] + s.v[q] * below.v[q + 1] + se.v[q] * below.v[q + 2] +
                          w.v[q] * mid.v[q] + e.v[q] * mid.v[q + 2] + nw.v[q] * above.v[q] +
                          n.v[q] * above.v[q + 1] + ne.v[q] * above.v[q + 2];
        const float updated = (1.0f - a.omega) * mid.v[q + 1] + a.omega * (f.v[q] - sum) / c.v[q];
        r[q] = i0 + q < a.nx ? updated : 0.0f;  // columns past nx are pitch padding: they stay 0
      }
      store4(a.x_new + k, r);
      below = mid;
      mid = above;
    }
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_multirow(const PitchedArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  const dim3 grid(blocks_for((a.nx + 3) / 4, block), grid_rows(blocks_for(a.ny, rows_per_thread)));
  jacobi_multirow<<<grid, block, 0, stream>>>(a, rows_per_thread);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_multirow");
}

int multirow_blocks_per_sm(int block) {
  int blocks = 0;
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, jacobi_multirow, block, 0));
  return blocks;
}
#endif

}  // namespace gpgpu::jacobi::cuda
