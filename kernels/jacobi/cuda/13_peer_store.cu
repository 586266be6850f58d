// Chapter 13: 07b_04_symmetric.cu on one GPU's rows of a grid split over several GPUs, writing its
// boundary rows twice: into its own new iterate, and into the ghost rows of the neighbours' new
// iterates, which live on the other GPUs. With peer access enabled (cudaDeviceEnablePeerAccess), a
// store to another GPU's memory travels over NVLink like a store to its own: the exchange of
// boundary rows is part of the kernel, with no copy and no launch after it.
#include "launchers.hpp"
#include "row_window.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [kernel]
__global__ void jacobi_peer_store(SymmetricArgs a, float* below_ghost, float* above_ghost, int rows_per_thread) {
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
      // The first and the last row also go straight into the neighbours' ghost rows, on their GPUs:
      // 16-byte stores over NVLink, no copy afterwards.
      if (j == 0 && below_ghost != nullptr) store4(below_ghost + i0, r);
      if (j == a.ny - 1 && above_ghost != nullptr) store4(above_ghost + i0, r);
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
void launch_jacobi_peer_store(const PeerStoreArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  const SymmetricArgs& s = a.rows;
  const dim3 grid(blocks_for((s.nx + 3) / 4, block), grid_rows(blocks_for(s.ny, rows_per_thread)));
  jacobi_peer_store<<<grid, block, 0, stream>>>(s, a.below_ghost, a.above_ghost, rows_per_thread);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_peer_store");
}
#endif

}  // namespace gpgpu::jacobi::cuda
