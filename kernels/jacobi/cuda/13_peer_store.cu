// Chapter 13: 07b_04_symmetric.cu on one GPU's rows of a grid split over several GPUs, writing its
// boundary rows twice: into its own new iterate, and into the ghost rows of the neighbours' new
// iterates, which live on the other GPUs. With peer access enabled (cudaDeviceEnablePeerAccess), a
// store to another GPU's memory travels over NVLink like a store to its own: the exchange of
// boundary rows is part of the kernel, with no copy and no launch after it. On the iterations that
// check convergence the same sweep also sums the squared update (jacobi_peer_store_norm): every
// chapter 13 GPU variant launches this kernel then, with no neighbours' rows where it has none. A
// later launch of either kernel hands a check's sum to the host (publish_norm).
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

//! [publish]
// Check c's sum handed to the host by one thread: no event, no copy, no call of the host. It runs
// at the start of a later launch that stream order (and the events that join the slab's streams
// between iterations) puts after every launch of check c, or in a kernel of its own. A kernel
// boundary is the fence: a launch starts once every block of the launches before it has finished,
// and their atomics are visible to it, so the total is complete, and the blocks of a check need no
// fence and no ticket: each adds its sum by one atomicAdd whose result it does not wait for.
// The value reaches the host before the number: __threadfence_system() orders the stores for every
// observer, the host's CPU included (the host waits for the number, then reads the value).
// The sum is zeroed for the slot's next check, c+2, before the number is written, and c+2 cannot
// add to it before the zero lands: the host starts c+2 only after it has read c's number
// (CheckSequence: at most two checks in flight), which the fence puts after the zero; and c+2's
// launches follow this one in stream order as well. Check c+1 uses the other slot meanwhile.
// The cost: one thread's load of the sum and three stores, one fence between them that waits until
// the value has crossed the bus to host memory; paid by block 0 alone, while the others sweep.
__device__ void publish_norm(const NormPublication& publish) {
  const double total = *publish.sum;
  *publish.sum = 0.0;
  publish.slot->value = total;
  __threadfence_system();
  *static_cast<volatile unsigned long long*>(&publish.slot->sequence) = publish.sequence;
}

// What every peer-store launch does first: block 0's thread 0 publishes the check it carries, if any.
__device__ void publish_carried(const NormPublication& publish) {
  if (publish.slot != nullptr && blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0) publish_norm(publish);
}

// The host's own publication, for a check it waits for before any later launch comes (one thread).
__global__ void jacobi_publish_norm(NormPublication publish) { publish_norm(publish); }
//! [publish]

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

__global__ void jacobi_peer_store(SymmetricArgs a, float* below_ghost, float* above_ghost, int rows_per_thread,
                                  NormPublication publish) {
  publish_carried(publish);  // an earlier check's norm, if this launch carries it ("publish" above)
  NoUpdates none;
  peer_store_rows(a, below_ghost, above_ghost, rows_per_thread, none);
}
//! [kernel]

#ifndef GPGPU_CUDA_EMULATION  // CUB is device code; the emulated tests run the plain kernel above
//! [norm_kernel]
// The same sweep, and the squared update summed over the block by CUB's BlockReduce (warp shuffles
// within each warp, then the warps' sums combined in shared memory), then added to the GPU's one
// double by the block's thread 0: one atomicAdd per block, nothing waits for it. Threads past the
// last column return from the sweep with a zero sum and still join the reduction.
template <int kBlock>
__global__ void jacobi_peer_store_norm(SymmetricArgs a, float* below_ghost, float* above_ghost, int rows_per_thread,
                                       double* squared_sum, NormPublication publish) {
  publish_carried(publish);  // the check before this one, if this launch carries it
  SquaredUpdates updates;
  peer_store_rows(a, below_ghost, above_ghost, rows_per_thread, updates);
  using BlockSum = cub::BlockReduce<double, kBlock>;
  __shared__ typename BlockSum::TempStorage scratch;
  const double block_sum = BlockSum(scratch).Sum(updates.sum);
  if (threadIdx.x == 0) atomicAdd(squared_sum, block_sum);
}
//! [norm_kernel]
#endif

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
void launch_jacobi_peer_store(const PeerStoreArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  const SymmetricArgs& s = a.rows;
  const dim3 grid = peer_store_grid(s.nx, s.ny, block, rows_per_thread);
  if (a.squared_sum == nullptr) {
    jacobi_peer_store<<<grid, block, 0, stream>>>(s, a.below_ghost, a.above_ghost, rows_per_thread, a.publish);
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

void launch_publish_norm(const NormPublication& publish, cudaStream_t stream) {
  jacobi_publish_norm<<<1, 1, 0, stream>>>(publish);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_publish_norm");
}
#endif

}  // namespace gpgpu::jacobi::cuda
