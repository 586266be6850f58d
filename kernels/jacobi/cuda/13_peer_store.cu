// Chapter 13: 07b_04_symmetric.cu on one GPU's rows of a grid split over several GPUs, writing its
// boundary rows twice: into its own new iterate, and into the ghost rows of the neighbours' new
// iterates, which live on the other GPUs. With peer access enabled (cudaDeviceEnablePeerAccess), a
// store to another GPU's memory travels over NVLink like a store to its own: the exchange of
// boundary rows is part of the kernel, with no copy and no launch after it. On the iterations that
// check convergence the same sweep also sums the squared update (jacobi_peer_store_norm): every
// chapter 13 GPU variant launches this kernel then, with no neighbours' rows where it has none.
#include "launchers.hpp"
#include "row_window.hpp"
#include "symmetric_update.hpp"

#include <string>

#ifndef GPGPU_CUDA_EMULATION
#include <cub/block/block_reduce.cuh>
#endif

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

//! [updates]
// What the sweep does with each node's new and old value: nothing, or the norm's sum. The
// difference is taken in float, as the iterate is stored; a float squared is exact in double, where
// the sum is kept (convergence.hpp: the norm every variant computes).
struct NoUpdates {
  __device__ void add(float, float) {}
};
struct SquaredUpdates {
  double sum = 0.0;
  __device__ void add(float now, float before) {
    const float d = now - before;
    sum += static_cast<double>(d) * static_cast<double>(d);
  }
};
//! [updates]

//! [kernel]
// The sweep of one thread's columns and rows; `updates` sees every new value beside the old one
// (the norm's kernel sums their squared differences, the plain kernel passes NoUpdates).
template <class Updates>
__device__ void peer_store_rows(const SymmetricArgs& a, float* below_ghost, float* above_ghost, int rows_per_thread,
                                Updates& updates) {
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
        if (i0 + q < a.nx) updates.add(updated, mid.v[q + 1]);
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

__global__ void jacobi_peer_store(SymmetricArgs a, float* below_ghost, float* above_ghost, int rows_per_thread) {
  NoUpdates none;
  peer_store_rows(a, below_ghost, above_ghost, rows_per_thread, none);
}
//! [kernel]

//! [publish]
// One block's sum added to the GPU's one double, by the block's thread 0. With a publication, the
// block then takes a ticket, and the block that takes the last ticket of the check publishes the
// total to the host's mapped memory: no event, no copy, no call of the host between the sweep and
// the value. Why the last block sees every sum (the fences pair up through the tickets):
//   every block:  add its sum (atomic)  ->  __threadfence()  ->  take a ticket (atomic)
//   the last one: took ticket blocks-1, so every other block's ticket came before its own, and with
//                 it that block's sum (its fence ordered the two)  ->  __threadfence()  ->  read the total
// The total and the ticket counter are set back to zero at once (an atomic exchange reads the sum and
// zeroes it): the next check on this slot, later in stream order, starts from zero with no memset.
// The value reaches the host before the sequence number does: __threadfence_system() orders the two
// stores for every observer, the host's CPU included (the host waits for the number, then reads).
__device__ void add_to_norm(double* squared_sum, double block_sum, const NormPublication& publish) {
  atomicAdd(squared_sum, block_sum);
  if (publish.slot == nullptr) return;  // the sum stays on the GPU (NCCL's allreduce, a copy)
  __threadfence();
  if (atomicAdd(publish.tickets, 1u) + 1 != publish.blocks) return;
  __threadfence();
  // atomicExch has no double: the sum's 64 bits are exchanged as an integer.
  const double total = __longlong_as_double(
      static_cast<long long>(atomicExch(reinterpret_cast<unsigned long long*>(squared_sum), 0ull)));
  atomicExch(publish.tickets, 0u);
  publish.slot->value = total;
  __threadfence_system();
  *static_cast<volatile unsigned long long*>(&publish.slot->sequence) = publish.sequence;
}
//! [publish]

#ifndef GPGPU_CUDA_EMULATION  // CUB is device code; the emulated tests run the plain kernel above
//! [norm_kernel]
// The same sweep, and the squared update summed over the block by CUB's BlockReduce (warp shuffles
// within each warp, then the warps' sums combined in shared memory), then added to the GPU's one
// double by the block's thread 0: one atomicAdd per block, and with a publication one ticket.
// Threads past the last column return from the sweep with a zero sum and still join the reduction,
// so every block of the launch adds (and takes its ticket) exactly once.
template <int kBlock>
__global__ void jacobi_peer_store_norm(SymmetricArgs a, float* below_ghost, float* above_ghost, int rows_per_thread,
                                       double* squared_sum, NormPublication publish) {
  SquaredUpdates updates;
  peer_store_rows(a, below_ghost, above_ghost, rows_per_thread, updates);
  using BlockSum = cub::BlockReduce<double, kBlock>;
  __shared__ typename BlockSum::TempStorage scratch;
  const double block_sum = BlockSum(scratch).Sum(updates.sum);
  if (threadIdx.x == 0) add_to_norm(squared_sum, block_sum, publish);
}
//! [norm_kernel]
#endif

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_peer_store(const PeerStoreArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  const SymmetricArgs& s = a.rows;
  const dim3 grid = peer_store_grid(s.nx, s.ny, block, rows_per_thread);
  if (a.squared_sum == nullptr) {
    jacobi_peer_store<<<grid, block, 0, stream>>>(s, a.below_ghost, a.above_ghost, rows_per_thread);
    GPGPU_CUDA_CHECK_LAUNCH("jacobi_peer_store");
    return;
  }
  // BlockReduce is sized at compile time: one instance per block size the norm supports.
  const auto launch = [&](auto kernel) {
    kernel<<<grid, block, 0, stream>>>(s, a.below_ghost, a.above_ghost, rows_per_thread, a.squared_sum, a.publish);
    GPGPU_CUDA_CHECK_LAUNCH("jacobi_peer_store_norm");
  };
  switch (block) {
    case 32: return launch(jacobi_peer_store_norm<32>);
    case 64: return launch(jacobi_peer_store_norm<64>);
    case 128: return launch(jacobi_peer_store_norm<128>);
    case 256: return launch(jacobi_peer_store_norm<256>);
    case 512: return launch(jacobi_peer_store_norm<512>);
    case 1024: return launch(jacobi_peer_store_norm<1024>);
    default:
      throw gpgpu::UsageError("the update norm's block reduction needs a block of 32, 64, 128, 256, 512 or 1024 threads, not " +
                              std::to_string(block) + " (--block)");
  }
}
#endif

}  // namespace gpgpu::jacobi::cuda
