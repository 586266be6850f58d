// Chapter 07b (past the paper; the paper's future work): 07b_03_multirow.cu on the symmetric
// storage. The matrix is symmetric, so only the main diagonal and the four upper diagonals
// (C, E, NW, N, NE) are stored: 5 arrays instead of 9, 32 instead of 48 bytes per node. The lower
// couplings of node (i, j) are upper couplings of its neighbours:
//   W(i, j) = E(i-1, j)   S(i, j) = N(i, j-1)   SW(i, j) = NE(i-1, j-1)   SE(i, j) = NW(i+1, j-1)
// Walking up the grid, row j-1's N, NE and NW are already in registers when row j needs them as
// S, SW and SE: each stored coefficient is loaded once and used twice. Only W needs one extra
// value per thread and row, E(i0-1, j), from the on-chip cache.
#include "launchers.hpp"
#include "row_window.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_symmetric(SymmetricArgs a, int rows_per_thread) {
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
    for (int j = j0; j < j_end; ++j, k += p) {
      const Window above = load_window(a.x + k + p);
      const Four c = load4(a.c + k), e = load4(a.e + k), nw = load4(a.nw + k), n = load4(a.n + k),
                 ne = load4(a.ne + k), f = load4(a.f + k);
      const Four w = shifted_right(e, __ldg(a.e + k - 1));
      float r[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {  // column i0+q is window element q+1
        const Neighbours coupling{sw.v[q], s.v[q], se.v[q], w.v[q], e.v[q], nw.v[q], n.v[q], ne.v[q]};
        const Neighbours x{below.v[q], below.v[q + 1], below.v[q + 2], mid.v[q],
                           mid.v[q + 2], above.v[q], above.v[q + 1], above.v[q + 2]};
        const float updated = symmetric_update(coupling, x, mid.v[q + 1], c.v[q], f.v[q], a.omega);
        r[q] = i0 + q < a.nx ? updated : 0.0f;
      }
      store4(a.x_new + k, r);
      s = n;  // this row's upper couplings become the next row's lower ones
      sw = shifted_right(ne, __ldg(a.ne + k - 1));
      se = shifted_left(nw, __ldg(a.nw + k + 4));
      below = mid;
      mid = above;
    }
  }
}
//! [kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_symmetric(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  const dim3 grid(blocks_for((a.nx + 3) / 4, block), grid_rows(blocks_for(a.ny, rows_per_thread)));
  jacobi_symmetric<<<grid, block, 0, stream>>>(a, rows_per_thread);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_symmetric");
}

int symmetric_blocks_per_sm(int block) {
  int blocks = 0;
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, jacobi_symmetric, block, 0));
  return blocks;
}
#endif

}  // namespace gpgpu::jacobi::cuda
