// The check of exercise 10b (label cpu, no GPU needed): ring_slot, your bookkeeping, drives chapter
// 10b's warp-specialised ring (mbarrier_ring.hpp) on a CPU model of the mbarrier
// (kernels/blas/cuda/tests/mbarrier_model.hpp, the model that also checks the chapter's own
// pipeline_ring.hpp): a producer, 1 to 3 consumers and the loads in flight, 2 to 8 stages, fewer
// k-steps than stages up to many times more, in three kinds of interleaving. The reference is the
// model, not the chapter's functions: the PTX ISA's try_wait.parity, and the phase each use of a
// buffer completes on its two barriers. It fails where a consumer would read a buffer before its
// k-step landed, where the producer would overwrite a k-step some consumer has not released, where
// a wait would wait for a phase that has already completed (a hang), on a stage outside the ring,
// and on a deadlock. It cannot show the hardware's memory ordering (fences, proxies); chapter 10b's
// GPU tests do.
#include <ring_slot.hpp>  // the student's file (exercises/ or solutions/: the include path decides)

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "blas/cuda/tests/mbarrier_model.hpp"

namespace {

namespace model = gpgpu::blas::cuda::ring_model;

// ring_slot must be usable in constant expressions (this fails to compile otherwise).
[[maybe_unused]] constexpr ex10b::RingSlot kConstant = ex10b::ring_slot(9, 4);

model::SlotOf yours(int stages) {
  return [stages](int k_step) {
    const ex10b::RingSlot r = ex10b::ring_slot(k_step, stages);
    return model::Slot{r.stage, r.full_parity, r.producer_waits, r.empty_parity};
  };
}

std::vector<int> step_counts(int stages) {
  return {1, 2, stages - 1, stages, stages + 1, 2 * stages, 2 * stages + 1, 3 * stages + 2, 4 * stages + 1, 13, 100};
}

// Every ring of 2, 3, 4, 5 and 8 stages with 1 to 3 consumers at every k-step count above, under
// `schedule` (with `seeds` seeds where it is random): the first that fails, and why.
::testing::AssertionResult ring_holds(model::Schedule schedule, std::uint32_t seeds) {
  for (int stages : {2, 3, 4, 5, 8})
    for (int consumers = 1; consumers <= 3; ++consumers)
      for (int steps : step_counts(stages))
        for (std::uint32_t seed = 1; seed <= seeds; ++seed)
          if (!model::run_ring(steps, stages, consumers, yours(stages), schedule, seed))
            return ::testing::AssertionFailure() << "(above) in a ring of " << stages << " stages, " << consumers << " consumer(s), "
                                                 << steps << " k-steps, schedule " << model::schedule_name(schedule)
                                                 << (schedule == model::Schedule::random ? ", seed " + std::to_string(seed) : "");
  return ::testing::AssertionSuccess();
}

// The producer runs ahead as far as its waits let it, and the loads land as late as they can: a
// producer that passes "empty" before the consumers released the buffer, or a consumer that passes
// "full" before the load landed, shows here.
TEST(MbarrierRing, ProducerAheadOfTheConsumers) { EXPECT_TRUE(ring_holds(model::Schedule::producer_first, 1)); }

// Loads land at once and the consumers release at once; the producer comes last and finds its
// phases already completed: a wait whose parity names the phase after shows here.
TEST(MbarrierRing, ConsumersAheadOfTheProducer) { EXPECT_TRUE(ring_holds(model::Schedule::consumers_first, 1)); }

// Any order: 20 seeded random interleavings of each ring.
TEST(MbarrierRing, RandomInterleavings) { EXPECT_TRUE(ring_holds(model::Schedule::random, 20)); }

}  // namespace
