/// @file gemm_register_block.hpp
/// @brief Exercise 10: C = A·B with a block of C per thread held in registers, for any m, n, k, in a
/// tile shape you choose within a register and shared-memory budget.
#pragma once

namespace ex10 {

/// Threads per block, one-dimensional (given).
inline constexpr int kThreads = 256;
/// The register budget: at most this many accumulators (elements of C) per thread.
inline constexpr int kMaxAccumulators = 64;
/// The shared-memory budget of one block, in bytes: the 48 KiB a block may declare statically.
inline constexpr int kMaxSharedBytes = 48 * 1024;
/// The goal: at most one shared-memory load per kFmasPerSharedLoad multiply-adds, in every thread.
inline constexpr int kFmasPerSharedLoad = 4;

/// The tiles a kernel uses: a block computes block_m x block_n of C, stepping through k in steps of
/// step_k (tiles of block_m x step_k of A and step_k x block_n of B in shared memory); each thread
/// computes thread_m x thread_n elements of C in registers.
struct TileShape {
  int block_m, block_n, step_k, thread_m, thread_n;
};

/// The shape your kernel uses (defined beside it, in gemm_register_block.cu).
TileShape tile_shape();

/// C (m x n) = A (m x k) · B (k x n), all row-major float in device memory: a grid of
/// ceil(n / block_n) x ceil(m / block_m) blocks of kThreads threads, block (bx, by) computing rows
/// by*block_m ... and columns bx*block_n ... of C. Every element of C inside the matrix is written,
/// none outside it; no element of A or B outside its matrix is read. Launches on the default stream
/// and checks the launch.
void launch_gemm_register_block(const float* a, const float* b, float* c, int m, int n, int k);

}  // namespace ex10
