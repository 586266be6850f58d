/// @file ring_slot.hpp
/// @brief Exercise 10b, a shortcut the check must catch (its grading test proves it fails): the
/// buffers and the consumers' parity right, but the producer waits on "empty" with the same parity
/// as the consumers on "full", the parity of the fill it is about to make instead of the release of
/// the fill before. Its first wait passes on a fresh barrier and overwrites tiles still being read
/// (or, once they are released, waits for a release that needs its own load first).
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

EX10B_HOST_DEVICE constexpr RingSlot ring_slot(int k_step, int stages) {
  const unsigned parity = static_cast<unsigned>(k_step / stages) & 1u;
  return {k_step % stages, parity, k_step >= stages, parity};
}

}  // namespace ex10b
