// Chapter 10b's multi-stage bookkeeping (pipeline_ring.hpp) on the CPU: the ring's shared-memory
// layout, and the two protocols run against a model of the mbarrier (mbarrier_model.hpp, shared with
// exercise 10b) as the PTX ISA describes it ("Parallel Synchronization and Communication
// Instructions: mbarrier": a phase completes when its pending arrivals reach zero and its
// transaction bytes are done; try_wait.parity P reports completion when the current phase's parity
// differs from P, i.e. the phase of parity P just before it has completed). The model also knows which phase each wait means and fails when a wait passes
// before that phase, waits past it, or could be satisfied by another phase of the same parity (a
// waiter two phases behind), which the hardware cannot tell apart.
//   Step 5: one warpgroup loads ahead by `stages` and multiplies, keeping one wgmma group in flight.
//   Step 6: a producer and `consumers` consumer warpgroups in any interleaving (seeded random
//   schedules), with "full" and "empty" barriers.
// Each over k-step counts that are not multiples of the stages, and fewer k-steps than stages.
// What it cannot show: the hardware's memory ordering (fences, proxies), or that the kernels call
// these functions as the simulations do; the GPU session does that.
#include "blas/cuda/pipeline_ring.hpp"
#include "blas/cuda/tests/mbarrier_model.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest-spi.h>  // ScopedFakeTestPartResultReporter: the mutation tests expect failures
#include <gtest/gtest.h>

namespace gpgpu::blas::cuda::tc {
namespace {

TEST(RingLayout, TilesAlignedBarriersAfterThemAndAFitForAnyBase) {
  constexpr int kTile = 64 * 128;  // a 64-row box of 128-byte rows, as steps 5 and 6 load
  for (int stages = 1; stages <= 8; ++stages) {
    const RingLayout r = ring_layout(stages, kTile, kTile);
    ASSERT_EQ(r.stage_bytes % kRingAlignment, 0);
    ASSERT_EQ(r.b_offset % kRingAlignment, 0);
    ASSERT_EQ(r.full_offset, stages * 2 * kTile);       // after the last stage's tiles
    ASSERT_EQ(r.empty_offset, r.full_offset + 8 * stages);
    ASSERT_EQ(r.bytes, r.empty_offset + 8 * stages);
    ASSERT_EQ(r.full_offset % 8, 0);
    // Dynamic shared memory is 16-byte aligned: from any such base, aligning up to 1024 leaves the
    // whole ring inside what the launch asked for.
    for (int base = 0; base < 4096; base += 16) {
      const int aligned = (base + kRingAlignment - 1) / kRingAlignment * kRingAlignment;
      ASSERT_LE(aligned + r.bytes, base + r.dynamic_bytes) << "stages " << stages << ", base " << base;
    }
  }
  // What steps 5 and 6 instantiate (4 stages) fits an H100's block; 14 would, 15 not.
  EXPECT_LE(ring_layout(4, kTile, kTile).dynamic_bytes, kMaxSharedPerBlockSm90);
  EXPECT_LE(ring_layout(14, kTile, kTile).dynamic_bytes, kMaxSharedPerBlockSm90);
  EXPECT_GT(ring_layout(15, kTile, kTile).dynamic_bytes, kMaxSharedPerBlockSm90);
}

// Step 13's buffer for C after the ring: on a 1024-byte boundary past the barriers, inside what the
// launch asks for from any 16-byte aligned base. Its configuration (3 stages of 48 KiB and 64 KiB
// for C) fits an H100's block, and so would 4 stages with 32 KiB; 4 stages with 64 KiB would not.
TEST(RingLayout, StagingForCAfterTheBarriersAndAFit) {
  constexpr int kA = 128 * 128, kB = 256 * 128;  // step 13's stage: 48 KiB
  for (int stages = 2; stages <= 4; ++stages)
    for (int staging : {16 * 1024, 32 * 1024, 64 * 1024}) {
      const RingLayout r = ring_layout(stages, kA, kB);
      const StagedRing s = staged_ring(r, staging);
      ASSERT_EQ(s.staging_offset % kRingAlignment, 0);
      ASSERT_GE(s.staging_offset, r.bytes);
      ASSERT_LT(s.staging_offset, r.bytes + kRingAlignment);
      for (int base = 0; base < 4096; base += 16) {
        const int aligned = (base + kRingAlignment - 1) / kRingAlignment * kRingAlignment;
        ASSERT_LE(aligned + s.staging_offset + staging, base + s.dynamic_bytes) << stages << " stages, base " << base;
      }
    }
  EXPECT_LE(staged_ring(ring_layout(3, kA, kB), 64 * 1024).dynamic_bytes, kMaxSharedPerBlockSm90);
  EXPECT_LE(staged_ring(ring_layout(4, kA, kB), 32 * 1024).dynamic_bytes, kMaxSharedPerBlockSm90);
  EXPECT_GT(staged_ring(ring_layout(4, kA, kB), 64 * 1024).dynamic_bytes, kMaxSharedPerBlockSm90);
}

using ring_model::Load;
using ring_model::Mbarrier;

// ---------------------------------------------------------------------------------------------
// Step 5: one warpgroup. Thread 0 loads the prologue, then at each k-step: wait "full", issue the
// k-step's wgmma group, wait_group 1 (only this group left in flight), barrier, refill the stage of
// the k-step before. Loads land at the last possible moment (when a wait needs them), so the stage
// being overwritten is checked against the wgmma groups in flight at issue time.
// Returns false, with a failure recorded, on a deadlock or an overwritten stage.
bool simulate_single_warpgroup(int steps, int stages) {
  std::vector<Mbarrier> full(static_cast<std::size_t>(stages));
  for (Mbarrier& b : full) b.init(1);
  std::vector<int> holds(static_cast<std::size_t>(stages), -1);  // the k-step each stage holds (landed or landing)
  std::vector<Load> in_flight_loads;
  std::set<int> reading;  // stages read by wgmma groups in flight
  std::vector<int> loaded(static_cast<std::size_t>(steps), 0);
  const auto load = [&](int k_step) -> bool {
    const int stage = stage_phase(k_step, stages).stage;
    if (reading.count(stage)) {
      ADD_FAILURE() << "k-step " << k_step << " overwrites stage " << stage << " while wgmma reads it (stages " << stages << ")";
      return false;
    }
    full[static_cast<std::size_t>(stage)].arrive_expect_tx();
    holds[static_cast<std::size_t>(stage)] = k_step;
    in_flight_loads.push_back({stage, k_step});
    ++loaded[static_cast<std::size_t>(k_step)];
    return true;
  };
  for (int s = 0; s < ring_prologue(steps, stages); ++s)
    if (!load(s)) return false;
  for (int s = 0; s < steps; ++s) {
    const StagePhase p = stage_phase(s, stages);
    Mbarrier& bar = full[static_cast<std::size_t>(p.stage)];
    const std::string who = "k-step " + std::to_string(s) + " of " + std::to_string(steps) + ", stages " + std::to_string(stages);
    while (!bar.try_wait(p.parity, s / stages, who)) {  // land the oldest load of this stage, if any
      bool landed = false;
      for (auto it = in_flight_loads.begin(); it != in_flight_loads.end(); ++it)
        if (it->stage == p.stage) {
          bar.complete_tx();
          in_flight_loads.erase(it);
          landed = true;
          break;
        }
      if (!landed) {
        ADD_FAILURE() << who << ": deadlock, nothing will complete the phase waited for";
        return false;
      }
    }
    if (holds[static_cast<std::size_t>(p.stage)] != s) {
      ADD_FAILURE() << who << ": stage " << p.stage << " holds k-step " << holds[static_cast<std::size_t>(p.stage)];
      return false;
    }
    reading = {p.stage};  // wgmma group s issued; wait_group 1 leaves only it in flight
    const int next = ring_refill(s, stages, steps);
    if (next >= 0) {
      if (stage_phase(next, stages).stage != stage_phase(s - 1, stages).stage) {
        ADD_FAILURE() << who << ": refill of k-step " << next << " is not into the freed stage";
        return false;
      }
      if (!load(next)) return false;
    }
  }
  for (int s = 0; s < steps; ++s) EXPECT_EQ(loaded[static_cast<std::size_t>(s)], 1) << "k-step " << s << " loaded";
  EXPECT_TRUE(in_flight_loads.empty()) << "loads left in flight: the kernel would exit before they land";
  return !::testing::Test::HasFailure();
}

TEST(PipelineRing, EveryKStepOnceInOrderForAwkwardCounts) {
  for (int stages = 2; stages <= 6; ++stages)
    for (int steps = 1; steps <= 4 * stages + 3; ++steps) ASSERT_TRUE(simulate_single_warpgroup(steps, stages));
}

TEST(PipelineRing, RefillsExactlyTheKStepsThePrologueLeft) {
  for (int stages = 2; stages <= 6; ++stages)
    for (int steps = 1; steps <= 30; ++steps) {
      int refills = 0;
      for (int s = 0; s < steps; ++s) refills += ring_refill(s, stages, steps) >= 0;
      ASSERT_EQ(ring_prologue(steps, stages) + refills, steps) << stages << " stages, " << steps << " k-steps";
    }
}

// One stage and one wgmma group in flight overwrite the tiles being read: the simulation must see
// it (this is why step 5 static_asserts two stages or more).
TEST(PipelineRing, OneStageWithAGroupInFlightIsCaught) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
                                                         &failures);
    simulate_single_warpgroup(5, 1);
  }
  EXPECT_GT(failures.size(), 0);
}

// ---------------------------------------------------------------------------------------------
// Step 6: a producer (one thread) and `consumers` consumer warpgroups, scheduled in a random order
// each turn (mbarrier_model.hpp's ring: producer, per k-step s: wait "empty" if empty_wait says so,
// arrive.expect_tx on "full", issue the loads; consumer, per k-step s: wait "full", issue wgmma
// group s, wait_group 1, arrive "empty" of s - 1's stage; after the last k-step wait_group 0 and
// arrive for it; loads land at random turns after their issue), with the kernel's bookkeeping.
ring_model::SlotOf chapter_slots(int stages) {
  return [stages](int s) {
    const StagePhase p = stage_phase(s, stages);
    const EmptyWait w = empty_wait(s, stages);
    return ring_model::Slot{p.stage, p.parity, w.wait, w.parity};
  };
}

// Runs one random schedule to the end; false (with a failure) on a deadlock or a broken wait.
bool run_schedule(int steps, int stages, int consumers, std::uint32_t seed) {
  return ring_model::run_ring(steps, stages, consumers, chapter_slots(stages), ring_model::Schedule::random, seed);
}

TEST(WarpSpecializedRing, FullAndEmptyPhasesHoldInAnyInterleaving) {
  for (int stages = 2; stages <= 5; ++stages)
    for (int consumers = 1; consumers <= 2; ++consumers)
      for (int steps : {1, 2, 3, 5, 7, 11, 13, 4 * stages + 1}) {
        const std::string ring = std::to_string(steps) + " k-steps, " + std::to_string(stages) + " stages, " +
                                 std::to_string(consumers) + " consumers, schedule ";
        for (std::uint32_t seed = 1; seed <= 40; ++seed)
          ASSERT_TRUE(run_schedule(steps, stages, consumers, seed)) << ring << "random, seed " << seed;
        // And the two extremes: the producer as far ahead as it may go, and as far behind.
        for (ring_model::Schedule order : {ring_model::Schedule::producer_first, ring_model::Schedule::consumers_first})
          ASSERT_TRUE(ring_model::run_ring(steps, stages, consumers, chapter_slots(stages), order)) << ring << ring_model::schedule_name(order);
      }
}

// With one stage a consumer releases k-step s only after issuing s + 1, which the producer cannot
// load before the release: a deadlock (the kernel's hang), which step 6's static_assert excludes.
TEST(WarpSpecializedRing, OneStageDeadlocksAndIsCaught) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD,
                                                         &failures);
    run_schedule(3, 1, 1, 1);
  }
  EXPECT_GT(failures.size(), 0);
}

TEST(WarpSpecializedRing, EmptyWaitsForTheUseBefore) {
  for (int stages = 1; stages <= 6; ++stages)
    for (int s = 0; s < 40; ++s) {
      const EmptyWait w = empty_wait(s, stages);
      ASSERT_EQ(w.wait, s >= stages);
      if (w.wait) {
        ASSERT_EQ(w.parity, static_cast<unsigned>((s / stages - 1) % 2)) << stages << " stages, k-step " << s;
      }
    }
}

}  // namespace
}  // namespace gpgpu::blas::cuda::tc
