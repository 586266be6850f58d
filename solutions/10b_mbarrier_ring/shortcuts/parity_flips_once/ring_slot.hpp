/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): the
/// parity taken as "first fill or not" (0 for a buffer's first fill, 1 for every later one, and so
/// for the releases the producer waits on) instead of alternating. Right while k is short (at most
/// two fills of each buffer, as in a small test); from the third fill on the consumers pass on the
/// second fill's phase, before their tiles land: the large products go wrong, the small ones pass.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const unsigned parity = k_step < stages ? 0u : 1u;
  return {k_step % stages, parity, k_step >= stages, k_step < 2 * stages ? 0u : 1u};
}

}  // namespace ex10b
