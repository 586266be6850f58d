/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): every
/// k-step in buffer 0, with step 4's parities (k-step s is the buffer's fill s). Each wait names its
/// phase right, but the ring does not run ahead at all, and in this loop it cannot even run: a
/// consumer releases k-step s - 1 only after issuing k-step s's wgmma, and with one buffer k-step s
/// cannot be loaded before that release (a deadlock; step 4, with one buffer, waits for its products
/// before it loads again).
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  (void)stages;
  const unsigned parity = static_cast<unsigned>(k_step) & 1u;
  return {0, parity, true, parity ^ 1u};
}

}  // namespace ex10b
