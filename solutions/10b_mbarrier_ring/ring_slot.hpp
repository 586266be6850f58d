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
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const int fill = k_step / stages;
  const unsigned parity = fill % 2 == 0 ? 0u : 1u;
  return {k_step % stages, parity, true, parity ^ 1u};
}

}  // namespace ex10b
