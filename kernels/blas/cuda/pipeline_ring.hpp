/// @file pipeline_ring.hpp
/// @brief The bookkeeping of chapter 10b's multi-stage steps (5: 10b_05_pipeline.cu, 6:
/// 10b_06_warp_specialized.cu) as host+device constexpr functions the CPU tests simulate
/// (tests/test_pipeline_ring.cpp): where each stage of the ring lies in shared memory, which k-step
/// goes into a stage once it is free, and which phase of a stage's "empty" barrier a producer waits
/// for before it reuses the stage. Nothing here touches a GPU.
///
/// A ring of `stages` buffers serves k-steps 0, 1, ..., steps - 1: k-step s lives in stage
/// s % stages (tc::stage_phase), whose "full" mbarrier completes one phase per use. Any number of
/// k-steps works, fewer than the stages included: the prologue loads only the k-steps that exist.
#pragma once

#include "tensor_core_layout.hpp"  // stage_phase

namespace gpgpu::blas::cuda::tc {

/// The ring in dynamic shared memory, offsets from a base aligned to 1024 bytes (the 128-byte
/// swizzle's pattern repeats every 1024 bytes, and TMA and wgmma compute it on address bits):
/// stage i's A tile at i·stage_bytes, its Bᵀ tile right after, then the "full" mbarriers (8 bytes
/// each), then the "empty" ones (step 6; step 5 leaves them unused).
struct RingLayout {
  int stage_bytes;  ///< one stage: A tile + Bᵀ tile (a multiple of 1024)
  int b_offset;     ///< Bᵀ's tile within a stage
  int full_offset;  ///< the first "full" barrier
  int empty_offset; ///< the first "empty" barrier
  int bytes;        ///< everything, from the aligned base
  int dynamic_bytes;///< what the launch asks for: `bytes` plus the slack to align a base that
                    ///< CUDA guarantees only 16-byte aligned
};

constexpr int kRingAlignment = 1024;

//! [ring_layout]
constexpr __host__ __device__ RingLayout ring_layout(int stages, int a_tile_bytes, int b_tile_bytes) {
  const int stage = a_tile_bytes + b_tile_bytes;
  const int full = stages * stage;
  const int empty = full + 8 * stages;
  const int bytes = empty + 8 * stages;
  return {stage, a_tile_bytes, full, empty, bytes, bytes + kRingAlignment - 16};
}
//! [ring_layout]

/// Chapter 10b's step 11: a buffer of `staging_bytes` for C beside the ring, after its barriers, on the next
/// 1024-byte boundary (TMA reads it in 128B-swizzled boxes, whose pattern is computed on address
/// bits as the tiles' is).
struct StagedRing {
  int staging_offset;  ///< C's buffer, from the aligned base
  int dynamic_bytes;   ///< what the launch asks for, with the same slack as RingLayout's
};

//! [staged_ring]
constexpr __host__ __device__ StagedRing staged_ring(const RingLayout& ring, int staging_bytes) {
  const int offset = (ring.bytes + kRingAlignment - 1) / kRingAlignment * kRingAlignment;
  return {offset, offset + staging_bytes + (ring.dynamic_bytes - ring.bytes)};
}
//! [staged_ring]

/// The shared memory one block of an H100 may have (cudaDevAttrMaxSharedMemoryPerBlockOptin on
/// compute capability 9.0: 227 KiB), which a ring must fit.
constexpr int kMaxSharedPerBlockSm90 = 227 * 1024;

/// How many k-steps the prologue loads before the first product: one per stage, fewer if k is short.
constexpr __host__ __device__ int ring_prologue(int steps, int stages) { return steps < stages ? steps : stages; }

/// Step 5 (one warpgroup that both loads and multiplies). At k-step `computing`, once wgmma.wait_group 1
/// has left only that k-step's products in flight, k-step computing - 1's stage is free: it is
/// refilled with k-step computing - 1 + stages, or with nothing (-1) where that is past the end
/// (or at the first k-step, when no stage has been freed yet). Needs stages >= 2: with one stage the
/// refill would overwrite the tiles the k-step in flight reads (the simulation shows it).
//! [ring_refill]
constexpr __host__ __device__ int ring_refill(int computing, int stages, int steps) {
  if (computing < 1) return -1;
  const int next = computing - 1 + stages;
  return next < steps ? next : -1;
}
//! [ring_refill]

/// Step 6: before the producer loads k-step `k_step` into its stage, the consumers must have
/// released the stage's previous use, k-step k_step - stages, by one phase of the stage's "empty"
/// barrier: that use's phase, whose parity stage_phase gives. The first `stages` k-steps find their
/// stages never used and do not wait.
struct EmptyWait {
  bool wait;       ///< the stage was used before
  unsigned parity; ///< the parity of the phase that released it
};

//! [empty_wait]
constexpr __host__ __device__ EmptyWait empty_wait(int k_step, int stages) {
  if (k_step < stages) return {false, 0u};
  return {true, stage_phase(k_step - stages, stages).parity};
}
//! [empty_wait]

}  // namespace gpgpu::blas::cuda::tc
