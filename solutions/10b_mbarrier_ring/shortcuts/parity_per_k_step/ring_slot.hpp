/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): step
/// 4's rule for its one buffer, parity k_step & 1, carried over to a ring, for the consumers and
/// (for the k-step that used the buffer before) the producer. With several buffers the parity
/// alternates per fill of a buffer, not per k-step: k-step 1's consumers pass on a fresh barrier.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const unsigned parity = static_cast<unsigned>(k_step) & 1u;
  return {k_step % stages, parity, k_step >= stages, static_cast<unsigned>(k_step - stages) & 1u};
}

}  // namespace ex10b
