/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): the
/// buffers right and the producer waiting from each buffer's second fill on, but every wait with
/// parity 0, as if a wait meant "until the barrier completes". Phases alternate: the second fill's
/// consumers pass on the first phase's completion, before their tiles land.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) { return {k_step % stages, 0u, k_step >= stages, 0u}; }

}  // namespace ex10b
