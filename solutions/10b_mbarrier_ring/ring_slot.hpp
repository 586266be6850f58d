/// @file ring_slot.hpp
/// @brief Exercise 10b, worked answer. Count the fills of a buffer: k-step s is fill
/// f = s / stages of buffer s % stages (the ring hands the buffers out in turn). Each fill is one
/// phase of the buffer's full barrier (the producer's one arrival plus its bytes), so the consumers
/// reading fill f wait for phase f, of parity f % 2. Each fill is also, once every consumer has
/// arrived, one phase of the buffer's empty barrier; before fill f the producer must see fill f - 1
/// released, phase f - 1, whose parity is the other one. For f = 0 that is the phase "before"
/// phase 0: try_wait.parity counts it as completed on a fresh barrier (parity 1 passes at once), so
/// the producer may wait on every fill, the first ones included, with no case of its own. (Skipping
/// the wait on the first fills, as chapter 10b's kernel does, is just as right.)
///
/// The README's questions. (1) and (2) are answered above: after mbarrier.init phase 0 runs, parity
/// 0 waits for it and parity 1 passes at once; fill f (the (f + 1)-th) finds f phases of the full
/// barrier completed and completes phase f, and needs phase f - 1 of the empty barrier completed.
/// (3) With one buffer, k-step s is fill s, so parity s & 1 is the fill's. With two, k-step s is fill
/// s / 2 of buffer s % 2, whose parity is (s / 2) & 1: s & 1 has k-step 1 wait with parity 1 on a
/// fresh barrier, which passes at once, before its tiles have landed, and k-step 2 wait with parity 0
/// on buffer 0, whose phase 0 (k-step 0's fill) has completed: it too reads a buffer still filling.
/// (4) No: fill f + 1 of a buffer is loaded only after every consumer has released fill f, so a
/// consumer waiting for phase f of the full barrier finds at most phase f completed and phase f + 1
/// running; likewise the consumers cannot release fill f + 1 before the producer has loaded it. It
/// matters because the parity is one bit: two phases behind, the phase waited for and the current
/// one have the same parity, and the wait would take the running phase for the one it means,
/// waiting for it to complete, which needs the waiter to move first (a hang).
/// (5) Is either cheaper? Not measurably: waiting on the first fills costs `stages` try_waits that
/// return at once, by one thread, per block (the k-step count runs on across a persistent block's
/// tiles), while skipping them costs a test of k_step < stages at every k-step; beside a k-step's
/// TMA copies and wgmma products, both are a few instructions of the one producer thread.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const int fill = k_step / stages;
  const unsigned parity = fill % 2 == 0 ? 0u : 1u;
  return {k_step % stages, parity, true, parity ^ 1u};
}

}  // namespace ex10b
