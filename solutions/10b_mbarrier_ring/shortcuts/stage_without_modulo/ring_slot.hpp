/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): a
/// buffer of its own for every k-step, as if the ring were endless, with the parities of the worked
/// answer. Past the last buffer its TMA writes over the barriers and whatever lies beyond.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const unsigned parity = static_cast<unsigned>(k_step / stages) & 1u;
  return {k_step, parity, true, parity ^ 1u};
}

}  // namespace ex10b
