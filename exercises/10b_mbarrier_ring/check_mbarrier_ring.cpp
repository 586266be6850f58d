// The check of exercise 10b (label cpu, no GPU needed): ring_slot, your bookkeeping, drives chapter
// 10b's warp-specialised ring (mbarrier_ring.hpp) on a CPU model of the mbarrier
// (kernels/blas/cuda/tests/mbarrier_model.hpp, the model that also checks the chapter's own
// pipeline_ring.hpp): a producer, 1 to 3 consumers and the loads in flight, 2 to 8 stages, fewer
// k-steps than stages up to many times more, in three kinds of interleaving. The reference is the
// model, not the chapter's functions: the PTX ISA's try_wait.parity, and the phase each use of a
// buffer completes on its two barriers. It fails where a consumer would read a buffer before its
// k-step landed, where the producer would overwrite a k-step some consumer has not released, where
// a wait would wait for a phase that has already completed (a hang), on a stage outside the ring,
// on a deadlock, on a ring that does not use its depth (fewer buffers in turn than it has, so the
// producer cannot run as far ahead as the ring allows), and on a ring_slot that does not return
// (a watchdog, well within the test's timeout of a minute). It cannot show the hardware's memory
// ordering (fences, proxies); chapter 10b's GPU tests do.
//
// The student's file is compiled in ring_slot_call.cpp, once for each build (the skeleton, the
// worked answer, each shortcut), whose include path holds the student's folder, the exercise's
// interface (mbarrier_ring.hpp) and a copy of the model alone (CMakeLists.txt), so a student's file
// cannot reach the chapter's own bookkeeping through it; this file, compiled once, calls it through
// ring_slot_call.hpp. A path relative to the file itself could reach the chapter, so the check also
// reads the file (ring_slot_file()) and fails on any #include but the interface's and the C++
// standard library's.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/harness/source_code.hpp"
#include "gpgpu/harness/watchdog.hpp"
#include "mbarrier_model.hpp"  // kernels/blas/cuda/tests/mbarrier_model.hpp, copied alone
#include "ring_slot_call.hpp"

namespace {

namespace model = gpgpu::blas::cuda::ring_model;

// The call of ring_slot in progress, for the watchdog's message.
std::atomic<int> g_k_step{-1}, g_stages{-1};

ex10b::RingSlot slot_of(int k_step, int stages) {
  g_k_step = k_step;
  g_stages = stages;
  return ex10b::call_ring_slot(k_step, stages);
}

// Fails the check, with the call that did not return, when the tests have not finished after 10 s:
// a ring_slot that loops for ever would otherwise hang it (the model itself always ends, reporting a
// deadlock as a failure). The correct answer takes about 0.1 s, so 10 s leaves a hundredfold margin
// on a loaded machine, and the grading of the looping shortcut waits 10 s, not 40.
[[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(10), [] {
  return "ring_slot(" + std::to_string(g_k_step.load()) + ", " + std::to_string(g_stages.load()) + ") has not returned";
});

model::SlotOf yours(int stages) {
  return [stages](int k_step) {
    const ex10b::RingSlot r = slot_of(k_step, stages);
    return model::Slot{r.stage, r.full_parity, r.producer_waits, r.empty_parity};
  };
}

// The ring uses its depth: the producer can load `stages` k-steps ahead of the consumers only if
// any `stages` consecutive k-steps lie in `stages` different buffers, i.e. if k-step s goes into
// the buffer of k-step s - stages and of no k-step in between (and the first `stages` k-steps into
// buffers of their own). A ring of one buffer, or of two whatever `stages` says, keeps every wait
// right and passes the model, but serialises the loads the ring is there to overlap.
::testing::AssertionResult uses_its_depth(int stages) {
  std::vector<int> last(static_cast<std::size_t>(stages), -1);  // per buffer, the last k-step put into it
  for (int s = 0; s <= 4 * stages + 1; ++s) {
    const int stage = slot_of(s, stages).stage;
    if (stage < 0 || stage >= stages)
      return ::testing::AssertionFailure() << "k-step " << s << " of a ring of " << stages << " goes to stage " << stage
                                           << ", not one of the ring's buffers 0 .. " << stages - 1;
    const int before = last[static_cast<std::size_t>(stage)];
    if (before >= 0 && before > s - stages)
      return ::testing::AssertionFailure()
             << "in a ring of " << stages << " stages, k-step " << s << " goes to stage " << stage << ", which k-step " << before
             << " used only " << s - before << " k-step(s) before: the producer can then load at most " << s - before
             << " k-step(s) ahead, so the ring works as one of " << s - before << " (any " << stages
             << " consecutive k-steps need " << stages << " different buffers)";
    last[static_cast<std::size_t>(stage)] = s;
  }
  return ::testing::AssertionSuccess();
}

// The lines of `text` as the preprocessor reads its directives: splices joined, comments blanked,
// literals kept (an #include's "file" is one).
std::vector<std::string> logical_lines(const std::string& text) {
  const std::string code = gpgpu::harness::code_without_comments(text);
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = code.find('\n', start)) != std::string::npos; start = end + 1) lines.push_back(code.substr(start, end - start));
  lines.push_back(code.substr(start));
  return lines;
}

// The student's file may include the interface and headers of the C++ standard library (<cstdint>,
// <utility>: a name of letters, digits and underscores) and nothing else. The check's include path
// does not reach the chapter's bookkeeping, but a path relative to the file does
// ("../../kernels/blas/cuda/pipeline_ring.hpp", or tensor_core_layout.hpp beside it), wherever the
// CUDA headers those need lie on the compiler's default path; so does a macro that names it.
::testing::AssertionResult includes_only_the_interface(const std::string& path) {
  std::ifstream file(path);
  if (!file) return ::testing::AssertionFailure() << "cannot read " << path;
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  static const std::regex directive(R"(^\s*(#|%:)\s*(include|include_next|import)\b\s*(.*?)\s*$)");
  static const std::regex allowed(R"(^("mbarrier_ring\.hpp"|<[A-Za-z0-9_]+>)$)");
  for (const std::string& line : logical_lines(text)) {
    std::smatch m;
    if (std::regex_match(line, m, directive) && !std::regex_match(m[3].str(), allowed))
      return ::testing::AssertionFailure()
             << path << " has #" << m[2] << " " << m[3]
             << ": ring_slot.hpp may include \"mbarrier_ring.hpp\" and the C++ standard library's headers alone, "
                "so that the bookkeeping is yours, not the chapter's (kernels/blas/cuda/pipeline_ring.hpp or "
                "tensor_core_layout.hpp, reached by any path)";
  }
  return ::testing::AssertionSuccess();
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

// Every buffer of the ring in turn, so that the producer can run as many k-steps ahead as there are
// stages.
TEST(MbarrierRing, UsesEveryStageOfItsRing) {
  for (int stages : {2, 3, 4, 5, 8}) EXPECT_TRUE(uses_its_depth(stages));
}

// Your bookkeeping is your own: no #include but the interface's and the standard library's.
TEST(RingSlotFile, IncludesOnlyTheInterfaceAndTheStandardLibrary) { EXPECT_TRUE(includes_only_the_interface(ex10b::ring_slot_file())); }

}  // namespace
