/// @file ring_slot_call.hpp
/// @brief How exercise 10b's check (check_mbarrier_ring.cpp, compiled once) reaches the ring_slot of
/// the build it is linked into: ring_slot_call.cpp, compiled for each build (the skeleton, the worked
/// answer, each shortcut), is the one file that includes the student's ring_slot.hpp.
#pragma once

#include "mbarrier_ring.hpp"

namespace ex10b {

/// ring_slot(k_step, stages) of this build's ring_slot.hpp.
RingSlot call_ring_slot(int k_step, int stages);

/// The path of this build's ring_slot.hpp, which the check reads for its #include directives.
const char* ring_slot_file();

}  // namespace ex10b
