/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): the
/// worked answer for a ring of two buffers, whatever `stages` says (written against a two-stage ring
/// and never generalised). Every wait names its phase right, but in a ring of four the producer stays
/// at most two k-steps ahead and two buffers are never used.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  (void)stages;
  const unsigned parity = static_cast<unsigned>(k_step / 2) & 1u;
  return {k_step % 2, parity, true, parity ^ 1u};
}

}  // namespace ex10b
