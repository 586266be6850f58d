/// @file mbarrier_model.hpp
/// @brief A CPU model of the mbarrier as the PTX ISA describes it, and chapter 10b's warp-specialised
/// ring (step 6, 10b_06_warp_specialized.cu) run on it in many interleavings, for tests: the chapter's
/// own bookkeeping (pipeline_ring.hpp, tests/test_pipeline_ring.cpp) and exercise 10b's
/// (exercises/10b_mbarrier_ring) are checked by the same model. Nothing here comes from the
/// functions under test: the ring's bookkeeping is a parameter (Slot, SlotOf), and what each wait
/// must mean is counted from the loads the model has seen.
///
/// The mbarrier (PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier"): a
/// phase completes when its pending arrivals reach zero and its transaction bytes are done, and the
/// next phase begins. mbarrier.try_wait.parity P reports completion when the current phase's parity
/// differs from P, i.e. when the phase of parity P just before it has completed; on a fresh barrier
/// (phase 0 running) parity 1 therefore passes at once. The model also knows which phase each wait
/// means and fails when the answer is not that phase's: a wait that passes before its phase
/// completed (the waiter goes on too early), one that does not pass although its phase completed
/// (it waits for a later phase: a hang where that phase needs the waiter first), and one whose
/// phase is two or more behind, which the hardware cannot tell apart by parity.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpgpu::blas::cuda::ring_model {

/// One mbarrier. Failures are recorded as test failures and counted in `failures` (a test that
/// intercepts failures on purpose hides them from ::testing::Test::HasFailure()).
struct Mbarrier {
  int count = 0;          // arrivals per phase (mbarrier.init)
  int pending = 0;        // arrivals still missing in the current phase
  int tx_pending = 0;     // transactions (loads) still to land in the current phase
  long completed = 0;     // phases completed since init; the current phase's number
  mutable int failures = 0;
  void init(int arrivals) { count = pending = arrivals; }
  void complete_if_done() {
    if (pending == 0 && tx_pending == 0) {
      ++completed;
      pending = count;
    }
  }
  void arrive() {
    if (pending <= 0) {
      ++failures;
      ADD_FAILURE() << "an arrival beyond the barrier's count of " << count << " in one phase (undefined in the PTX ISA)";
      return;
    }
    --pending;
    complete_if_done();
  }
  void arrive_expect_tx() {  // one arrival and one load's bytes (counted here as one transaction)
    ++tx_pending;
    arrive();
  }
  void complete_tx() {
    if (tx_pending <= 0) {
      ++failures;
      ADD_FAILURE() << "bytes landed on a barrier that expects none";
      return;
    }
    --tx_pending;
    complete_if_done();
  }
  // try_wait.parity: true when the current phase's parity is not `parity`. `meant` is the phase
  // (0-based) the waiter wants; -1 for "none yet", which a fresh barrier's parity 1 answers.
  bool try_wait(unsigned parity, long meant, const std::string& who) const {
    const auto phase = [](long p) { return p < 0 ? std::string("no phase (the barrier is fresh)") : "phase " + std::to_string(p); };
    if (parity > 1) {
      ++failures;
      ADD_FAILURE() << who << ": parity " << parity << ": mbarrier.try_wait.parity takes 0 or 1";
      return false;
    }
    if (completed != meant && completed != meant + 1) {
      ++failures;
      ADD_FAILURE() << who << " waits for " << phase(meant) << " with phases completed so far: " << completed
                    << ": its parity cannot tell that phase from one two phases away";
    }
    const bool done = static_cast<unsigned>(completed & 1) != parity;
    if (done && completed <= meant) {
      ++failures;
      ADD_FAILURE() << who << ": parity " << parity << " passes before " << phase(meant) << " has completed (phases completed so far: "
                    << completed << "): it goes on too early";
    } else if (!done && meant < 0) {
      ++failures;
      ADD_FAILURE() << who << ": parity " << parity << " on a fresh barrier waits for its phase 0, which completes only once "
                    << "the use this wait comes before is over: a hang";
    } else if (!done && completed > meant) {
      ++failures;
      ADD_FAILURE() << who << ": parity " << parity << " does not pass although " << phase(meant) << " has completed (phases completed so far: "
                    << completed << "): it waits for the next phase of that parity instead (in these rings one that needs the "
                    << "waiter to move first: a hang)";
    }
    return done;
  }
};

/// A load issued into a stage, landing later.
struct Load {
  int stage;
  int k_step;
};

/// The ring's bookkeeping for one k-step, as a kernel computes it.
struct Slot {
  int stage;              ///< the buffer the k-step is loaded into, and its two barriers
  unsigned full_parity;   ///< the consumers wait on full[stage] with this parity before reading it
  bool producer_waits;    ///< the producer waits on empty[stage] before loading it ...
  unsigned empty_parity;  ///< ... with this parity
};
using SlotOf = std::function<Slot(int k_step)>;

/// The order in which the agents that can move are tried, each turn.
enum class Schedule {
  random,           ///< shuffled each turn (seeded)
  producer_first,   ///< the producer runs ahead as far as its waits let it; loads land as late as they can
  consumers_first,  ///< loads land at once, the consumers release at once; the producer comes last
};

inline const char* schedule_name(Schedule s) {
  return s == Schedule::random ? "random" : s == Schedule::producer_first ? "producer first" : "consumers first";
}

/// Step 6's ring: a producer (one thread) and `consumers` consumer warpgroups (one arrival each on
/// "empty" here; the kernel counts its consumer threads, which changes nothing but the count) over
/// `steps` k-steps and `stages` buffers, each with a "full" barrier (count 1) and an "empty" one
/// (count `consumers`), freshly initialised.
///   Producer, per k-step s: if slot(s).producer_waits, wait on empty[stage] with empty_parity;
///   arrive.expect_tx on full[stage] and issue the loads.
///   Consumer, per k-step s: wait on full[stage] with full_parity, issue wgmma group s, wait_group 1
///   (group s - 1 done), arrive on empty[slot(s - 1).stage]; after the last k-step, wait_group 0 and
///   arrive on empty[slot(steps - 1).stage].
/// What each wait means follows from the stages alone: the u-th k-step loaded into a stage (its
/// use u) completes phase u of the stage's full barrier, and its release by every consumer phase u
/// of its empty barrier. So a consumer reading use u means full phase u, and a producer about to
/// load use u means empty phase u - 1 (none for u = 0: it need not wait, and if it does, parity 1
/// passes at once on the fresh barrier).
class WarpSpecializedRing {
 public:
  WarpSpecializedRing(int steps, int stages, int consumers, const SlotOf& slot_of)
      : steps_(steps), consumers_(consumers), full_(static_cast<std::size_t>(stages)),
        empty_(static_cast<std::size_t>(stages)), holds_(static_cast<std::size_t>(stages), -1),
        landed_(static_cast<std::size_t>(stages), false), releases_(static_cast<std::size_t>(steps), 0),
        consumed_(static_cast<std::size_t>(consumers), 0), released_last_(static_cast<std::size_t>(consumers), false) {
    for (Mbarrier& b : full_) b.init(1);
    for (Mbarrier& b : empty_) b.init(consumers);
    std::vector<int> uses(static_cast<std::size_t>(stages), 0);
    for (int s = 0; s < steps && !failed(); ++s) {
      const Slot slot = slot_of(s);
      if (slot.stage < 0 || slot.stage >= stages) {
        fail("k-step ", s, " of a ", stages, "-stage ring goes to stage ", slot.stage, ", not one of the ring's buffers 0 .. ",
             stages - 1, " (its load would land outside the ring)");
      } else if (slot.full_parity > 1 || slot.empty_parity > 1) {
        fail("k-step ", s, ": parities ", slot.full_parity, " and ", slot.empty_parity, ": mbarrier.try_wait.parity takes 0 or 1");
      }
      slots_.push_back(slot);
      if (!failed()) use_.push_back(uses[static_cast<std::size_t>(slot.stage)]++);
    }
  }

  [[nodiscard]] bool failed() const {
    int n = own_failures_;
    for (const Mbarrier& b : full_) n += b.failures;
    for (const Mbarrier& b : empty_) n += b.failures;
    return n > 0;
  }
  [[nodiscard]] bool done() const {
    return produced_ == steps_ && landing_.empty() && std::all_of(released_last_.begin(), released_last_.end(), [](bool b) { return b; });
  }
  [[nodiscard]] std::size_t loads_in_flight() const { return landing_.size(); }

  // One step of the producer; false if it is blocked or done.
  bool producer() {
    if (produced_ == steps_) return false;
    const int s = produced_;
    const Slot& slot = slots_[static_cast<std::size_t>(s)];
    const int use = use_[static_cast<std::size_t>(s)];
    const int before = holds_[static_cast<std::size_t>(slot.stage)];
    if (use > 0 && !slot.producer_waits) {
      fail("the producer loads k-step ", s, " into stage ", slot.stage, " without waiting on its empty barrier, while k-step ",
           before, " (the stage's use before) may still be read");
      return false;
    }
    if (slot.producer_waits && !empty_[static_cast<std::size_t>(slot.stage)].try_wait(slot.empty_parity, use - 1, producer_name(s)))
      return false;
    if (before >= 0 && releases_[static_cast<std::size_t>(before)] < consumers_) {
      fail("the producer overwrites k-step ", before, " in stage ", slot.stage, " with k-step ", s, " while ",
           consumers_ - releases_[static_cast<std::size_t>(before)], " consumer(s) may still read it");
      return false;
    }
    full_[static_cast<std::size_t>(slot.stage)].arrive_expect_tx();
    holds_[static_cast<std::size_t>(slot.stage)] = s;
    landed_[static_cast<std::size_t>(slot.stage)] = false;
    landing_.push_back({slot.stage, s});
    ++produced_;
    return true;
  }

  // Load `i` of those in flight lands; false if there is none.
  bool land(std::size_t i) {
    if (i >= landing_.size()) return false;
    const Load l = landing_[i];
    full_[static_cast<std::size_t>(l.stage)].complete_tx();
    if (holds_[static_cast<std::size_t>(l.stage)] == l.k_step) landed_[static_cast<std::size_t>(l.stage)] = true;
    landing_.erase(landing_.begin() + static_cast<long>(i));
    return true;
  }

  // One step of consumer c; false if it is blocked or done.
  bool consumer(int c) {
    int& s = consumed_[static_cast<std::size_t>(c)];
    if (s == steps_) {  // wait_group 0, release the last k-step's stage
      if (released_last_[static_cast<std::size_t>(c)]) return false;
      release(steps_ - 1);
      released_last_[static_cast<std::size_t>(c)] = true;
      return true;
    }
    const Slot& slot = slots_[static_cast<std::size_t>(s)];
    if (!full_[static_cast<std::size_t>(slot.stage)].try_wait(slot.full_parity, use_[static_cast<std::size_t>(s)], consumer_name(c, s)))
      return false;
    if (holds_[static_cast<std::size_t>(slot.stage)] != s || !landed_[static_cast<std::size_t>(slot.stage)]) {
      const int held = holds_[static_cast<std::size_t>(slot.stage)];
      fail(consumer_name(c, s), " multiplies stage ", slot.stage, ", which holds ",
           held < 0 ? "no k-step yet" : "k-step " + std::to_string(held) + (held == s ? ", not yet landed" : ""));
      return false;
    }
    if (s > 0) release(s - 1);  // wgmma group s in flight; wait_group 1 finished group s - 1
    ++s;
    return true;
  }

  // Who waits on what, for a deadlock's message.
  [[nodiscard]] std::string blocked() const {
    std::ostringstream o;
    if (produced_ < steps_) {
      const Slot& slot = slots_[static_cast<std::size_t>(produced_)];
      o << "the producer at k-step " << produced_ << " waits on empty[" << slot.stage << "] with parity " << slot.empty_parity
        << " (phases completed so far: " << empty_[static_cast<std::size_t>(slot.stage)].completed << ")";
    } else {
      o << "the producer has loaded every k-step";
    }
    for (int c = 0; c < consumers_; ++c) {
      const int s = consumed_[static_cast<std::size_t>(c)];
      if (s == steps_) continue;
      const Slot& slot = slots_[static_cast<std::size_t>(s)];
      o << "; consumer " << c << " at k-step " << s << " waits on full[" << slot.stage << "] with parity " << slot.full_parity
        << " (phases completed so far: " << full_[static_cast<std::size_t>(slot.stage)].completed << ")";
    }
    return o.str();
  }

  // After done(): every k-step loaded once and released by every consumer.
  [[nodiscard]] ::testing::AssertionResult all_released() const {
    for (int s = 0; s < steps_; ++s)
      if (releases_[static_cast<std::size_t>(s)] != consumers_)
        return ::testing::AssertionFailure() << "k-step " << s << " released by " << releases_[static_cast<std::size_t>(s)] << " of "
                                             << consumers_ << " consumers";
    return ::testing::AssertionSuccess();
  }

 private:
  // Records a failure: a test failure, counted for failed().
  template <typename... Parts>
  void fail(const Parts&... parts) {
    std::ostringstream o;
    (o << ... << parts);
    ++own_failures_;
    ADD_FAILURE() << o.str();
  }
  void release(int k_step) {
    empty_[static_cast<std::size_t>(slots_[static_cast<std::size_t>(k_step)].stage)].arrive();
    ++releases_[static_cast<std::size_t>(k_step)];
  }
  std::string producer_name(int s) const {
    return "the producer at k-step " + std::to_string(s) + " (stage " + std::to_string(slots_[static_cast<std::size_t>(s)].stage) +
           ", its use " + std::to_string(use_[static_cast<std::size_t>(s)]) + ", waiting on empty for the use before)";
  }
  std::string consumer_name(int c, int s) const {
    return "consumer " + std::to_string(c) + " at k-step " + std::to_string(s) + " (stage " +
           std::to_string(slots_[static_cast<std::size_t>(s)].stage) + ", its use " + std::to_string(use_[static_cast<std::size_t>(s)]) +
           ", waiting on full)";
  }

  int steps_, consumers_;
  std::vector<Mbarrier> full_, empty_;
  std::vector<Slot> slots_;
  std::vector<int> use_;             // per k-step: how many k-steps its stage held before
  std::vector<int> holds_;           // per stage: the k-step it holds (landed or landing), -1 none yet
  std::vector<bool> landed_;         // per stage: its k-step's loads have landed
  std::vector<int> releases_;        // per k-step: the consumers that have released it
  std::vector<Load> landing_;        // loads in flight
  int produced_ = 0;
  std::vector<int> consumed_;        // per consumer, the next k-step to multiply
  std::vector<bool> released_last_;  // per consumer, the final arrival done
  int own_failures_ = 0;
};

/// Runs the ring to the end under `schedule`; false, with a test failure that says what went wrong,
/// on a broken wait, an overwritten or unlanded stage, or a deadlock.
inline bool run_ring(int steps, int stages, int consumers, const SlotOf& slot_of, Schedule schedule, std::uint32_t seed = 1) {
  WarpSpecializedRing ring(steps, stages, consumers, slot_of);
  if (ring.failed()) return false;
  std::mt19937 rng(seed);
  while (!ring.done()) {
    // The agents: 0 the producer, 1 .. consumers the consumers, then the loads in flight.
    const int loads = static_cast<int>(ring.loads_in_flight());
    std::vector<int> order;
    if (schedule == Schedule::consumers_first) {
      for (int i = 0; i < loads; ++i) order.push_back(1 + consumers + i);
      for (int c = 1; c <= consumers; ++c) order.push_back(c);
      order.push_back(0);
    } else {
      for (int a = 0; a < 1 + consumers + loads; ++a) order.push_back(a);
      if (schedule == Schedule::random) std::shuffle(order.begin(), order.end(), rng);
    }
    bool moved = false;
    for (int a : order) {
      if (a == 0)
        moved = ring.producer();
      else if (a <= consumers)
        moved = ring.consumer(a - 1);
      else
        moved = ring.land(static_cast<std::size_t>(a - 1 - consumers));
      if (moved || ring.failed()) break;
    }
    if (ring.failed()) return false;
    if (!moved) {
      ADD_FAILURE() << "deadlock, nothing can move: " << ring.blocked();
      return false;
    }
  }
  const ::testing::AssertionResult released = ring.all_released();
  if (!released) ADD_FAILURE() << released.message();
  return static_cast<bool>(released);
}

}  // namespace gpgpu::blas::cuda::ring_model
