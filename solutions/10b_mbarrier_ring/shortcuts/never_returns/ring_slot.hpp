/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): the
/// worked answer, except that for a ring of two buffers it never returns, as an endless loop or
/// recursion on some input would. It stands for every answer that hangs the check rather than
/// failing it: the check's watchdog must fail it, with the call that did not return, within a
/// minute. (At compile time, where the check evaluates ring_slot(9, 4), the loop is not reached.)
#pragma once

#include <type_traits>

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  if (!std::is_constant_evaluated() && stages == 2) {
    volatile unsigned never_set = 0u;  // read on every turn (volatile), so the loop stays a loop
    while (never_set == 0u) {
    }
  }
  const unsigned parity = static_cast<unsigned>(k_step / stages) & 1u;
  return {k_step % stages, parity, true, parity ^ 1u};
}

}  // namespace ex10b
