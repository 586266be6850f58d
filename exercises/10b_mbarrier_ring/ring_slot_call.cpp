// The part of exercise 10b's check compiled anew for each build (ring_slot_call.hpp says why).
#include <ring_slot.hpp>  // the student's file (exercises/ or solutions/: the include path decides)

#include "ring_slot_call.hpp"

namespace {

// ring_slot must be usable in constant expressions (this fails to compile otherwise).
[[maybe_unused]] constexpr ex10b::RingSlot kConstant = ex10b::ring_slot(9, 4);

}  // namespace

namespace ex10b {

RingSlot call_ring_slot(int k_step, int stages) { return ring_slot(k_step, stages); }

const char* ring_slot_file() { return EX10B_RING_SLOT_FILE; }  // set by CMakeLists.txt for each build

}  // namespace ex10b
