/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): an
/// off-by-one at the wrap in the parity, which flips at k-step stages - 1 instead of at k-step
/// stages ((k_step + 1) / stages). The last buffer's first consumers wait with parity 1, which a
/// fresh barrier passes at once: they read tiles that have not landed.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const unsigned parity = static_cast<unsigned>((k_step + 1) / stages) & 1u;
  return {k_step % stages, parity, true, parity ^ 1u};
}

}  // namespace ex10b
