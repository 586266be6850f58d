/// @file mbarrier_ring.hpp
/// @brief Exercise 10b: the bookkeeping of a ring of `stages` shared-memory buffers between a TMA
/// producer and wgmma consumers, as chapter 10b's warp-specialised step (10b_06_warp_specialized.cu)
/// runs it: which buffer k-step s uses, and which mbarrier phase parity each side waits for.
///
/// The ring. Buffer i (0 <= i < stages, stages >= 2) has two mbarriers, initialised once before the
/// k loop and never again: full[i] (arrival count 1: the producer's arrive.expect_tx, completed when
/// that arrival and the TMA bytes are in) and empty[i] (arrival count: the consumers; completed when
/// every consumer has arrived). The kernel runs, for k-steps s = 0, 1, ..., steps - 1:
///
///   the producer (one thread):
///     r = ring_slot(s, stages);
///     if (r.producer_waits) try_wait.parity(empty[r.stage], r.empty_parity);
///     arrive.expect_tx(full[r.stage]); TMA of k-step s into buffer r.stage
///   every consumer (a warpgroup; the kernel lets each of its threads arrive):
///     r = ring_slot(s, stages);
///     try_wait.parity(full[r.stage], r.full_parity);
///     wgmma of buffer r.stage (group s); wgmma.wait_group 1 (group s - 1 is done, so its buffer is free):
///     if (s > 0) arrive(empty[ring_slot(s - 1, stages).stage]);
///   and after its last k-step, every consumer: wgmma.wait_group 0; arrive(empty[ring_slot(steps - 1, stages).stage]).
///
/// mbarrier.try_wait.parity(bar, P) (PTX ISA, "mbarrier.test_wait/try_wait") returns once the
/// phase of `bar` with parity P that is the current phase or the one just before it has completed:
/// phases are numbered 0, 1, 2, ... from mbarrier.init, an even phase has parity 0, an odd one 1.
/// The producer and the consumers run at their own pace, the TMA loads land whenever they do, and
/// the number of k-steps has nothing to do with the number of stages (fewer k-steps than stages
/// too; a persistent kernel keeps counting k-steps across its tiles).
#pragma once

#ifdef __CUDACC__
#define EX10B_HOST_DEVICE __host__ __device__
#else
#define EX10B_HOST_DEVICE
#endif

namespace ex10b {

/// What both sides of the ring need to know about k-step s.
struct RingSlot {
  int stage;              ///< the buffer (and its full and empty barriers) k-step s is loaded into: 0 .. stages - 1
  unsigned full_parity;   ///< the consumers wait on full[stage] with this parity (0 or 1) before reading k-step s
  bool producer_waits;    ///< the producer waits on empty[stage] before loading k-step s ...
  unsigned empty_parity;  ///< ... with this parity (0 or 1)
};

/// The bookkeeping of k-step `k_step` (>= 0) in a ring of `stages` (>= 2) buffers, usable in device
/// code and in constant expressions. Right when, in every interleaving of the producer, the
/// consumers and the loads, no consumer reads a buffer before its k-step has landed, the producer
/// never overwrites a buffer before every consumer has released the k-step in it, and no wait
/// waits for a phase that has already completed (it would wait for the next one: a hang).
/// Written in ring_slot.hpp.
EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages);

}  // namespace ex10b
