// Chapter 07b (past the paper): 07b_05_prefetch.cu with the rows ahead in shared memory instead of
// registers. 07b_05 holds one row of loads in flight in registers (105 of them, so few warps per SM)
// and still reads its halo columns as scalar loads: lanes 16 B apart, 128 B in 17 sectors per warp.
// Here each block keeps a ring of kRingSlots rows in shared memory: the threads copy rows j+1 and j+2
// into it by cp.async (the copy runs on while the thread computes, holding no register) while they
// compute row j from it, and the halo columns are the neighbouring threads' values in the ring; only
// the two columns beyond the block are copied as 4-byte values. The update is symmetric_update on the
// same values: the bits are 07b_04_symmetric.cu's.
#include "blas/cuda/async_copy.hpp"
#include "block_shared.hpp"
#include "launchers.hpp"
#include "row_window.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

using gpgpu::blas::cuda::copy_async;
using gpgpu::blas::cuda::copy_async_commit;
using gpgpu::blas::cuda::copy_async_wait;

/// The arrays of one ring row j: x of row j+1 (the window above), then row j's five stored diagonals
/// and f. Each holds the block's 4 * blockDim.x columns from float 4 on (16-byte aligned), the column
/// left of the block at float 3 and the one right of it after the block's columns.
enum RingArray { kX, kC, kE, kNW, kN, kNE, kF, kRingArrays };

/// Rows whose copies are in flight while a row is computed, and the ring's rows (one more: the row
/// being read).
constexpr int kRowsAhead = 2;
constexpr int kRingSlots = kRowsAhead + 1;

/// Floats per ring array for a block of `block` threads: its columns, a halo column on each side,
/// rounded up to keep every array 16-byte aligned.
__host__ __device__ inline int ring_stride(int block) { return 4 * block + 8; }

/// Issues the copies of row j (k = j*pitch + i0) into one ring row; `o` is the thread's first column
/// in it. The first thread also copies the column left of the block, the last thread with columns
/// (the block's last, or the one at the grid's right edge) the column right of it.
__device__ __forceinline__ void copy_row_async(const SymmetricArgs& a, float* ring_row, int stride, int k, int o,
                                               bool left_edge, bool right_edge) {
  const float* const from[kRingArrays] = {a.x + k + a.pitch, a.c + k, a.e + k, a.nw + k, a.n + k, a.ne + k, a.f + k};
#pragma unroll
  for (int r = 0; r < kRingArrays; ++r) copy_async<16>(ring_row + r * stride + o, from[r], true);
  if (left_edge) {  // E(i0-1, j) for W, NE(i0-1, j) for the next row's SW, x(i0-1, j+1)
    copy_async<4>(ring_row + kX * stride + o - 1, from[kX] - 1, true);
    copy_async<4>(ring_row + kE * stride + o - 1, from[kE] - 1, true);
    copy_async<4>(ring_row + kNE * stride + o - 1, from[kNE] - 1, true);
  }
  if (right_edge) {  // NW(i0+4, j) for the next row's SE, x(i0+4, j+1)
    copy_async<4>(ring_row + kX * stride + o + 4, from[kX] + 4, true);
    copy_async<4>(ring_row + kNW * stride + o + 4, from[kNW] + 4, true);
  }
}

/// Four values from the ring (16-byte aligned), with one 16-byte shared-memory load.
__device__ __forceinline__ Four ring4(const float* p) {
  const float4 q = *reinterpret_cast<const float4*>(p);
  return {{q.x, q.y, q.z, q.w}};
}

//! [kernel]
__global__ void __launch_bounds__(kRingMaxBlock) jacobi_symmetric_ring(SymmetricArgs a, int rows_per_thread) {
  const int t = threadIdx.x, i0 = 4 * (blockIdx.x * blockDim.x + t);
  // Threads past the grid's right edge copy and store nothing but meet the block at its barriers.
  const bool has_columns = i0 < a.nx;
  const bool left_edge = has_columns && t == 0;
  const bool right_edge = has_columns && (t == static_cast<int>(blockDim.x) - 1 || i0 + 4 >= a.nx);
  const int p = a.pitch, stride = ring_stride(blockDim.x), o = 4 + 4 * t;
  float* const ring = block_shared();
  const auto ring_row = [&](int slot) { return ring + slot * kRingArrays * stride; };
  for (int j0 = blockIdx.y * rows_per_thread; j0 < a.ny; j0 += gridDim.y * rows_per_thread) {
    const int j_end = min(j0 + rows_per_thread, a.ny);
    int k = j0 * p + i0;
    __syncthreads();  // every thread has read the previous strip's ring rows: they may be refilled
    for (int d = 0; d < kRowsAhead; ++d) {  // one group of copies per row, empty past the strip
      if (has_columns && j0 + d < j_end) copy_row_async(a, ring_row(d), stride, k + d * p, o, left_edge, right_edge);
      copy_async_commit();
    }
    Window below{}, mid{};
    Four s{}, sw{}, se{};
    if (has_columns) {  // as 07b_04_symmetric.cu: row j0-1's upper couplings are row j0's lower ones
      below = load_window(a.x + k - p);
      mid = load_window(a.x + k);
      s = load4(a.n + k - p);
      sw = shifted_right(load4(a.ne + k - p), __ldg(a.ne + k - p - 1));
      se = shifted_left(load4(a.nw + k - p), __ldg(a.nw + k - p + 4));
    }
    int slot = 0;
    for (int j = j0; j < j_end; ++j, k += p) {
      copy_async_wait<kRowsAhead - 1>();  // this thread's copies of row j have landed
      __syncthreads();                      // so have everyone's, and row j-1's ring row is read
      if (has_columns && j + kRowsAhead < j_end)
        copy_row_async(a, ring_row((slot + kRowsAhead) % kRingSlots), stride, k + kRowsAhead * p, o, left_edge, right_edge);
      copy_async_commit();
      if (has_columns) {
        const float* const row = ring_row(slot) + o;
        const float* const x = row + kX * stride;
        const Window above{{x[-1], x[0], x[1], x[2], x[3], x[4]}};
        const Four c = ring4(row + kC * stride), e = ring4(row + kE * stride), nw = ring4(row + kNW * stride),
                   n = ring4(row + kN * stride), ne = ring4(row + kNE * stride), f = ring4(row + kF * stride);
        const Four w = shifted_right(e, row[kE * stride - 1]);
        float r[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {  // column i0+q is window element q+1
          const Neighbours coupling{sw.v[q], s.v[q], se.v[q], w.v[q], e.v[q], nw.v[q], n.v[q], ne.v[q]};
          const Neighbours xs{below.v[q], below.v[q + 1], below.v[q + 2], mid.v[q],
                              mid.v[q + 2], above.v[q], above.v[q + 1], above.v[q + 2]};
          const float updated = symmetric_update(coupling, xs, mid.v[q + 1], c.v[q], f.v[q], a.omega);
          r[q] = i0 + q < a.nx ? updated : 0.0f;
        }
        store4(a.x_new + k, r);
        s = n;  // this row's upper couplings become the next row's lower ones
        sw = shifted_right(ne, row[kNE * stride - 1]);
        se = shifted_left(nw, row[kNW * stride + 4]);
        below = mid;
        mid = above;
      }
      slot = (slot + 1) % kRingSlots;
    }
  }
}
//! [kernel]

}  // namespace

std::size_t symmetric_ring_shared_bytes(int block) {
  return sizeof(float) * static_cast<std::size_t>(kRingSlots) * kRingArrays * ring_stride(block);
}

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
namespace {

// Blocks of 256 threads need 84.7 KiB of ring, more than the 48 KiB a kernel gets without asking.
void allow_ring_shared_bytes() {
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_symmetric_ring, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(symmetric_ring_shared_bytes(kRingMaxBlock))));
}

}  // namespace

void launch_jacobi_symmetric_ring(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream) {
  allow_ring_shared_bytes();
  const dim3 grid(blocks_for((a.nx + 3) / 4, block), grid_rows(blocks_for(a.ny, rows_per_thread)));
  jacobi_symmetric_ring<<<grid, block, symmetric_ring_shared_bytes(block), stream>>>(a, rows_per_thread);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_symmetric_ring");
}

int symmetric_ring_blocks_per_sm(int block) {
  allow_ring_shared_bytes();
  int blocks = 0;
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, jacobi_symmetric_ring, block,
                                                                 symmetric_ring_shared_bytes(block)));
  return blocks;
}
#endif

}  // namespace gpgpu::jacobi::cuda
