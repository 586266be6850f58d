// Chapter 07c, step 5: one persistent launch for all iterations (the idea of PERKS). Each block owns
// rows_per_block consecutive rows of the grid and loads their five stored diagonals and f, with the
// row below for the lower couplings, into shared memory once; then it sweeps its rows `iters` times,
// reading the iterate from and writing it to global memory (the L2, where the whole iterate fits at
// the sizes this variant accepts), with a grid-wide barrier (cooperative_groups::this_grid().sync())
// between sweeps, because each sweep reads the rows the neighbouring blocks wrote in the one before.
// Per node and sweep the memory traffic falls from 32 B to the iterate's 8 B (4 read, 4 written)
// plus 24 B once per launch; the price is that the coefficients of the whole grid must fit into the
// shared memory of the co-resident blocks: 24 B per node against about 29 MiB on a 132-SM H200 (one
// block of up to 227 KiB per SM: 1024², 24 MiB, fits; 2048² does not), and a grid barrier per sweep.
#include "launchers.hpp"

#ifndef GPGPU_CUDA_EMULATION
#include <cooperative_groups.h>
#endif

#include "block_shared.hpp"
#include "onchip_planes.hpp"
#include "symmetric_update.hpp"

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"

namespace gpgpu::jacobi::cuda {

// Blocks of 512 threads, one block per SM: the shared memory of an SM holds one block's rows.
constexpr int kPersistentBlock = 512;
// The planes kept on chip: c, e, nw, n, ne and f (kStoredPlanes order without x).
constexpr int kPersistentPlanes = kStoredPlanes - 1;

namespace {

/// Floats per on-chip row: 4 zero columns on the left (column -1 of every row is zero), the grid's
/// columns rounded up to 4, and 4 zero columns on the right.
__host__ __device__ inline int persistent_stride(int nx) { return (nx + 3) / 4 * 4 + 8; }

//! [kernel]
__global__ void jacobi_persistent(PersistentArgs a) {
  const SymmetricArgs& s = a.sys;
  const int stride = persistent_stride(s.nx);
  const int j_begin = blockIdx.x * a.rows_per_block;
  const int j_end = min(j_begin + a.rows_per_block, s.ny);
  // On-chip row r is grid row j_begin-1+r; on-chip column c is grid column c-4.
  const Planes on_chip = planes_at(block_shared(), (a.rows_per_block + 1) * stride);
  for (int q = threadIdx.x; q < stride / 4 * (a.rows_per_block + 1); q += blockDim.x) {
    const int r = q / (stride / 4), col = q % (stride / 4) * 4;
    load_quad(s, col - 4, j_begin - 1 + r, on_chip, r * stride + col, kPersistentPlanes);
  }
  __syncthreads();
  const int p = s.pitch;
  for (int it = 0; it < a.iters; ++it) {
    // Chosen by a condition, not indexed: a.x[it % 2] would copy the arguments to local memory.
    const float* x = it % 2 == 0 ? a.x[0] : a.x[1];
    float* out = it % 2 == 0 ? a.x[1] : a.x[0];
    for (int node = threadIdx.x; node < (j_end - j_begin) * s.nx; node += blockDim.x) {
      const int j = j_begin + node / s.nx, i = node % s.nx;
      const int m = (j - j_begin + 1) * stride + i + 4, b = m - stride;
      const long long k = static_cast<long long>(j) * p + i;
      // The iterate through the L2 only (__ldcg): other SMs wrote it in the sweep before.
      const Neighbours c{on_chip.ne()[b - 1], on_chip.n()[b], on_chip.nw()[b + 1], on_chip.e()[m - 1],
                         on_chip.e()[m],      on_chip.nw()[m], on_chip.n()[m],     on_chip.ne()[m]};
      const Neighbours v{__ldcg(x + k - p - 1), __ldcg(x + k - p), __ldcg(x + k - p + 1), __ldcg(x + k - 1),
                         __ldcg(x + k + 1),     __ldcg(x + k + p - 1), __ldcg(x + k + p), __ldcg(x + k + p + 1)};
      out[k] = symmetric_update(c, v, __ldcg(x + k), on_chip.c()[m], on_chip.f()[m], s.omega);
    }
    cooperative_groups::this_grid().sync();  // every row of this sweep written before any is read
  }
}
//! [kernel]

}  // namespace

std::size_t persistent_shared_bytes(int nx, int rows_per_block) {
  return static_cast<std::size_t>(kPersistentPlanes) * (rows_per_block + 1) * persistent_stride(nx) * sizeof(float);
}

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel above on the CPU
int persistent_blocks_per_sm(std::size_t shared_bytes) {
  int blocks = 0;
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared_bytes)));
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, jacobi_persistent, kPersistentBlock,
                                                                 shared_bytes));
  return blocks;
}

namespace {

/// `barriers` grid-wide barriers and nothing else: what jacobi_persistent's sweeps wait for, alone.
__global__ void grid_barriers(int barriers) {
  for (int it = 0; it < barriers; ++it) cooperative_groups::this_grid().sync();
}

}  // namespace

double grid_barrier_seconds(int blocks, std::size_t shared_bytes, int barriers) {
  // The same dynamic shared memory as the solver's launch, unused, so that as few blocks share an SM.
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(grid_barriers, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared_bytes)));
  const auto launch = [&](int count) {
    void* params[] = {&count};
    GPGPU_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_barriers), dim3(blocks),
                                                 dim3(kPersistentBlock), params, shared_bytes, nullptr));
    GPGPU_CUDA_CHECK_LAUNCH("grid_barriers");
  };
  launch(1);  // warm-up: the module's first launch pays for loading it
  gpgpu::cuda::EventTimer timer;
  timer.start();
  launch(barriers);
  timer.stop();
  return timer.seconds() / barriers;
}

void launch_jacobi_persistent(const PersistentArgs& a, int blocks, cudaStream_t stream) {
  const std::size_t shared = persistent_shared_bytes(a.sys.nx, a.rows_per_block);
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(jacobi_persistent, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared)));
  PersistentArgs args = a;
  void* params[] = {&args};
  GPGPU_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(jacobi_persistent), dim3(blocks),
                                               dim3(kPersistentBlock), params, shared, stream));
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_persistent");
}
#endif

}  // namespace gpgpu::jacobi::cuda
