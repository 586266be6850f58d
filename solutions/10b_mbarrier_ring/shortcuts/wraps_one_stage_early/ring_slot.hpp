/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): an
/// off-by-one at the wrap, the ring taken as buffers 0 .. stages - 2 (k_step % (stages - 1)), with
/// parities that agree with it. Every wait names its phase right, but the last buffer is never used
/// and the producer runs one k-step less ahead than the ring allows (with two stages the ring is one
/// buffer, and the loop deadlocks as shortcut one_stage does).
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const int ring = stages - 1;
  const unsigned parity = static_cast<unsigned>(k_step / ring) & 1u;
  return {k_step % ring, parity, true, parity ^ 1u};
}

}  // namespace ex10b
