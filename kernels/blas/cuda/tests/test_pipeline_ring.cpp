// Chapter 10b's multi-stage bookkeeping (pipeline_ring.hpp) on the CPU: the ring's shared-memory
// layout, and the two protocols run against a model of the mbarrier as the PTX ISA describes it
// ("Parallel Synchronization and Communication Instructions: mbarrier": a phase completes when its
// pending arrivals reach zero and its transaction bytes are done; try_wait.parity P reports
// completion when the current phase's parity differs from P, i.e. the phase of parity P just before
// it has completed). The model also knows which phase each wait means and fails when a wait could be
// satisfied by another phase of the same parity (a waiter two phases behind), which the hardware
// cannot tell apart.
//   Step 5: one warpgroup loads ahead by `stages` and multiplies, keeping one wgmma group in flight.
//   Step 6: a producer and `consumers` consumer warpgroups in any interleaving (seeded random
//   schedules), with "full" and "empty" barriers.
// Each over k-step counts that are not multiples of the stages, and fewer k-steps than stages.
// What it cannot show: the hardware's memory ordering (fences, proxies), or that the kernels call
// these functions as the simulations do; the GPU session does that.
#include "blas/cuda/pipeline_ring.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
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

// An mbarrier as the PTX ISA describes it, with the phase each waiter means beside it.
struct Mbarrier {
  int count = 0;         // arrivals per phase (mbarrier.init)
  int pending = 0;       // arrivals still missing in the current phase
  int tx_pending = 0;    // transactions (loads) still to land in the current phase
  long completed = 0;    // phases completed since init; the current phase's number
  void init(int arrivals) { count = pending = arrivals; }
  void complete_if_done() {
    if (pending == 0 && tx_pending == 0) {
      ++completed;
      pending = count;
    }
  }
  void arrive() {
    ASSERT_GT(pending, 0);
    --pending;
    complete_if_done();
  }
  void arrive_expect_tx() {  // one arrival and one load's bytes (counted here as one transaction)
    ++tx_pending;
    arrive();
  }
  void complete_tx() {
    ASSERT_GT(tx_pending, 0);
    --tx_pending;
    complete_if_done();
  }
  // try_wait.parity: true when the current phase's parity is not `parity`. `meant` is the phase
  // (0-based use) the waiter wants: it must be the current one or the one just completed, else a
  // phase of the same parity further away could answer for it.
  bool try_wait(unsigned parity, long meant, const std::string& who) const {
    EXPECT_TRUE(completed == meant || completed == meant + 1)
        << who << " waits for phase " << meant << " with " << completed << " completed: the parity is ambiguous";
    const bool done = static_cast<unsigned>(completed & 1) != parity;
    EXPECT_EQ(done, completed > meant) << who << ": parity " << parity << " for phase " << meant;
    return done;
  }
};

// A load issued into a stage, landing later.
struct Load {
  int stage;
  int k_step;
};

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
// Step 6: a producer (one thread) and `consumers` consumer warpgroups (one arrival each on "empty"
// here; the kernel counts its consumer threads, which changes nothing but the count), scheduled in
// a random order each turn. Producer, per k-step s: wait "empty" if empty_wait says so,
// arrive.expect_tx on "full", issue the loads. Consumer, per k-step s: wait "full", issue wgmma
// group s, wait_group 1 (group s - 1 done), arrive "empty" of s - 1's stage; after the last k-step
// wait_group 0 and arrive for it. Loads land at random turns after their issue.
struct WarpSpecialized {
  int steps, stages, consumers;
  std::vector<Mbarrier> full, empty;
  std::vector<int> holds;           // the k-step each stage holds
  std::vector<Load> landing;        // loads in flight
  std::vector<std::set<int>> reading;  // per consumer, the stages its wgmma groups in flight read
  int produced = 0;
  std::vector<int> consumed;        // per consumer, the next k-step to multiply
  std::vector<bool> released_last;  // per consumer, the final arrival done

  WarpSpecialized(int steps_, int stages_, int consumers_)
      : steps(steps_), stages(stages_), consumers(consumers_), full(static_cast<std::size_t>(stages_)),
        empty(static_cast<std::size_t>(stages_)), holds(static_cast<std::size_t>(stages_), -1),
        reading(static_cast<std::size_t>(consumers_)), consumed(static_cast<std::size_t>(consumers_), 0),
        released_last(static_cast<std::size_t>(consumers_), false) {
    for (Mbarrier& b : full) b.init(1);
    for (Mbarrier& b : empty) b.init(consumers_);
  }
  bool done() const {
    for (int c = 0; c < consumers; ++c)
      if (!released_last[static_cast<std::size_t>(c)]) return false;
    return produced == steps && landing.empty();
  }
  // One step of the producer; false if it is blocked.
  bool producer() {
    if (produced == steps) return false;
    const int s = produced;
    const StagePhase p = stage_phase(s, stages);
    const EmptyWait w = empty_wait(s, stages);
    if (w.wait && !empty[static_cast<std::size_t>(p.stage)].try_wait(w.parity, s / stages - 1, "producer at k-step " + std::to_string(s)))
      return false;
    for (int c = 0; c < consumers; ++c)
      if (reading[static_cast<std::size_t>(c)].count(p.stage))
        ADD_FAILURE() << "producer loads k-step " << s << " into stage " << p.stage << " while consumer " << c << " reads it";
    full[static_cast<std::size_t>(p.stage)].arrive_expect_tx();
    holds[static_cast<std::size_t>(p.stage)] = s;
    landing.push_back({p.stage, s});
    ++produced;
    return true;
  }
  bool land(std::size_t i) {
    if (i >= landing.size()) return false;
    full[static_cast<std::size_t>(landing[i].stage)].complete_tx();
    landing.erase(landing.begin() + static_cast<long>(i));
    return true;
  }
  bool consumer(int c) {
    int& s = consumed[static_cast<std::size_t>(c)];
    std::set<int>& r = reading[static_cast<std::size_t>(c)];
    if (s == steps) {  // wait_group 0, release the last k-step's stage
      if (released_last[static_cast<std::size_t>(c)]) return false;
      empty[static_cast<std::size_t>(stage_phase(steps - 1, stages).stage)].arrive();
      r.clear();
      released_last[static_cast<std::size_t>(c)] = true;
      return true;
    }
    const StagePhase p = stage_phase(s, stages);
    if (!full[static_cast<std::size_t>(p.stage)].try_wait(p.parity, s / stages,
                                                          "consumer " + std::to_string(c) + " at k-step " + std::to_string(s)))
      return false;
    EXPECT_EQ(holds[static_cast<std::size_t>(p.stage)], s) << "consumer " << c << " multiplies the wrong tiles";
    r = {p.stage};  // group s in flight; wait_group 1 finished group s - 1
    if (s > 0) empty[static_cast<std::size_t>(stage_phase(s - 1, stages).stage)].arrive();
    ++s;
    return true;
  }
};

// Runs one random schedule to the end; false (with a failure) on a deadlock.
bool run_schedule(int steps, int stages, int consumers, std::uint32_t seed) {
  WarpSpecialized w(steps, stages, consumers);
  std::mt19937 rng(seed);
  while (!w.done()) {
    // Every agent that can move: 0 the producer, 1 .. consumers the consumers, then the loads.
    std::vector<int> order(static_cast<std::size_t>(1 + consumers + static_cast<int>(w.landing.size())));
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::shuffle(order.begin(), order.end(), rng);
    bool moved = false;
    for (int a : order) {
      if (a == 0)
        moved = w.producer();
      else if (a <= consumers)
        moved = w.consumer(a - 1);
      else
        moved = w.land(static_cast<std::size_t>(a - 1 - consumers));
      if (moved) break;
    }
    if (::testing::Test::HasFailure()) return false;
    if (!moved) {
      ADD_FAILURE() << "deadlock: " << steps << " k-steps, " << stages << " stages, " << consumers << " consumers, seed " << seed;
      return false;
    }
  }
  return true;
}

TEST(WarpSpecializedRing, FullAndEmptyPhasesHoldInAnyInterleaving) {
  for (int stages = 2; stages <= 5; ++stages)
    for (int consumers = 1; consumers <= 2; ++consumers)
      for (int steps : {1, 2, 3, 5, 7, 11, 13, 4 * stages + 1})
        for (std::uint32_t seed = 1; seed <= 40; ++seed) ASSERT_TRUE(run_schedule(steps, stages, consumers, seed));
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
