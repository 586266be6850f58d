// The host's side of a published update norm, checked without a GPU (norm_slots.hpp): the slots
// and numbers of the checks in flight, which launch publishes each check, the read of a slot that
// another thread writes, and the wait's rule, driven by a fake clock, a fake slot and fake streams.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "norm_slots.hpp"

namespace ch13 {
namespace {

using std::chrono::microseconds;
using std::chrono::nanoseconds;

TEST(CheckSequence, TwoSlotsInTurnEachCheckItsOwnNumber) {
  CheckSequence checks;
  EXPECT_THROW((void)checks.read(), std::logic_error);
  EXPECT_THROW((void)checks.last_started(), std::logic_error);
  std::uint64_t read = 0;
  for (std::uint64_t n = 0; n < 7; ++n) {  // a check every iteration, overlapped: two in flight
    const CheckSequence::Check c = checks.start();
    EXPECT_EQ(c.slot, n % 2);
    EXPECT_EQ(c.sequence, n + 1);  // 0 is "never published"
    EXPECT_EQ(checks.last_started().sequence, c.sequence);
    if (checks.in_flight() == 2) {
      EXPECT_THROW((void)checks.start(), std::logic_error) << "a third would reuse the slot of one not yet read";
      const CheckSequence::Check oldest = checks.read();
      EXPECT_EQ(oldest.sequence, ++read);
      EXPECT_EQ(oldest.slot, (read - 1) % 2);
    }
  }
  while (checks.in_flight() > 0) EXPECT_EQ(checks.read().sequence, ++read);
  EXPECT_EQ(read, 7U);
  EXPECT_THROW((void)checks.read(), std::logic_error);
}

TEST(PendingPublication, TheNextLaunchPublishesACheckOrElseTheHostsKernel) {
  CheckSequence checks;
  PendingPublication pending;
  EXPECT_FALSE(pending.take_for_launch().has_value()) << "nothing ended: a launch publishes nothing";
  // Overlapped, a check every iteration: check n's first launch publishes check n - 1, which the
  // host then reads with no kernel of its own; n's other launches publish nothing.
  CheckSequence::Check last = checks.start();
  EXPECT_THROW((void)pending.take_for_read(last), std::logic_error) << "read before its launches ended";
  pending.end(last);
  for (int n = 1; n < 6; ++n) {
    const CheckSequence::Check c = checks.start();
    const std::optional<CheckSequence::Check> carried = pending.take_for_launch();
    ASSERT_TRUE(carried.has_value());
    EXPECT_EQ(carried->sequence, last.sequence);
    EXPECT_EQ(carried->slot, last.slot);
    EXPECT_FALSE(pending.take_for_launch().has_value()) << "published once";
    pending.end(c);
    EXPECT_FALSE(pending.take_for_read(checks.read())) << "a launch published it: no publish kernel";
    last = c;
  }
  // The run's last check has no launch after it: the host's read launches its kernel, once.
  EXPECT_TRUE(pending.waiting());
  EXPECT_TRUE(pending.take_for_read(checks.read()));
  EXPECT_FALSE(pending.waiting());
  EXPECT_FALSE(pending.take_for_launch().has_value()) << "the kernel published it: the next launch carries nothing";
  // Synchronous (--check-overlap off): every check is read before any later launch, by a kernel.
  for (int n = 0; n < 3; ++n) {
    pending.end(checks.start());
    EXPECT_TRUE(pending.take_for_read(checks.read()));
  }
  // A check that ends while the one before it waits (a check with no launch) would leave that one
  // unpublished: refused.
  pending.end(checks.start());
  EXPECT_THROW(pending.end(checks.start()), std::logic_error);
}

struct Slot {  // jacobi_args.hpp's PublishedNorm, without CUDA
  double value;
  unsigned long long sequence;
};

TEST(PublishedValue, OnlyTheCheckWhoseNumberTheSlotHolds) {
  Slot slot{-1.5, 0};
  EXPECT_FALSE(published_value(slot, 1).has_value());
  slot = {2.25, 3};
  EXPECT_FALSE(published_value(slot, 1).has_value()) << "an older check's number is not this check's";
  EXPECT_FALSE(published_value(slot, 5).has_value()) << "nor is a later one's";
  ASSERT_TRUE(published_value(slot, 3).has_value());
  EXPECT_EQ(*published_value(slot, 3), 2.25);
}

TEST(PublishedValue, ReadWhileAnotherThreadPublishesCheckAfterCheck) {
  // The GPU's protocol, by a CPU thread: the value, then the number (release); a slot written again
  // only once the reader has read the check before it in that slot (CheckSequence's rule).
  constexpr std::uint64_t kChecks = 5000;
  Slot slots[2]{{0.0, 0}, {0.0, 0}};
  std::atomic<std::uint64_t> read_so_far{0};
  const auto value_of = [](std::uint64_t sequence) { return 0.5 * static_cast<double>(sequence) - 7.0; };
  std::jthread writer([&] {
    for (std::uint64_t n = 0; n < kChecks; ++n) {
      while (read_so_far.load(std::memory_order_acquire) + 2 <= n) std::this_thread::yield();
      Slot& s = slots[n % 2];
      std::atomic_ref<double>(s.value).store(value_of(n + 1), std::memory_order_relaxed);
      std::atomic_ref<unsigned long long>(s.sequence).store(n + 1, std::memory_order_release);
    }
  });
  CheckSequence checks;
  std::uint64_t wrong = 0;
  for (std::uint64_t n = 0; n < kChecks; ++n) {
    (void)checks.start();
    const CheckSequence::Check c = checks.read();
    std::optional<double> v;
    while (!(v = published_value(slots[c.slot], c.sequence))) std::this_thread::yield();
    if (*v != value_of(c.sequence)) ++wrong;
    read_so_far.store(n + 1, std::memory_order_release);
  }
  EXPECT_EQ(wrong, 0U);
}

// A fake of everything wait_published touches: a clock that advances `tick` per look, a slot that
// holds the value from the `publish_at`-th read on, streams idle from the `idle_at`-th query on.
struct FakeCheck {
  nanoseconds clock{0};
  nanoseconds tick{microseconds(1)};
  int reads = 0, queries = 0, whats = 0;
  int publish_at = -1;  // -1: never
  int idle_at = -1;     // -1: never
  bool query_fails = false;

  double wait(nanoseconds query_every = microseconds(100)) {
    return wait_published(
        [&]() -> std::optional<double> {
          ++reads;
          if (publish_at >= 0 && reads >= publish_at) return 42.5;
          return std::nullopt;
        },
        [&] {
          ++queries;
          if (query_fails) throw std::runtime_error("cudaStreamQuery failed: cudaErrorIllegalAddress");
          return idle_at >= 0 && queries >= idle_at;
        },
        [&] { return clock += tick; }, query_every,
        [&] {
          ++whats;
          return std::string("GPU 1's update norm of check 7");
        });
  }
};

TEST(WaitPublished, AValueAlreadyThereCostsNoQuery) {
  FakeCheck f;
  f.publish_at = 1;
  EXPECT_EQ(f.wait(), 42.5);
  EXPECT_EQ(f.reads, 1);
  EXPECT_EQ(f.queries, 0);
  EXPECT_EQ(f.whats, 0);
}

TEST(WaitPublished, BusyStreamsAreAskedOncePerIntervalUntilTheValueComes) {
  FakeCheck f;
  f.publish_at = 1000;  // about 1000 µs of the fake clock: 2 looks of 1 µs per read
  EXPECT_EQ(f.wait(microseconds(100)), 42.5);
  EXPECT_EQ(f.reads, 1000);
  const auto elapsed = f.clock.count() / 1000;  // µs
  EXPECT_GE(f.queries, elapsed / 100 - 1);
  EXPECT_LE(f.queries, elapsed / 100 + 1);
  EXPECT_GT(f.queries, 5);
  EXPECT_EQ(f.whats, 0);

  FakeCheck soon;  // the value before the first interval has passed: no query at all
  soon.publish_at = 20;
  EXPECT_EQ(soon.wait(microseconds(100)), 42.5);
  EXPECT_EQ(soon.queries, 0);
}

TEST(WaitPublished, IdleStreamsWithNoValueGiveUpNamingTheNorm) {
  FakeCheck f;
  f.idle_at = 3;  // two queries find work queued, the third none
  try {
    (void)f.wait();
    FAIL() << "the wait returned a value that was never published";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("GPU 1's update norm of check 7 was never published", 0), 0U) << message;
  }
  EXPECT_EQ(f.queries, 3) << "it gives up at the first query that finds the streams idle";
  EXPECT_EQ(f.whats, 1);
}

TEST(WaitPublished, AValueThatLandsJustBeforeTheStreamsFinishIsTaken) {
  // The last block publishes, its kernel ends, and the streams are idle by the time they are asked:
  // the read after the query finds the value.
  FakeCheck f;
  int reads_before_query = -1;
  const double v = wait_published(
      [&]() -> std::optional<double> {
        ++f.reads;
        if (f.queries > 0) return 3.0;
        return std::nullopt;
      },
      [&] {
        reads_before_query = f.reads;
        ++f.queries;
        return true;
      },
      [&] { return f.clock += f.tick; }, microseconds(10), [] { return std::string("norm"); });
  EXPECT_EQ(v, 3.0);
  EXPECT_EQ(f.queries, 1);
  EXPECT_EQ(f.reads, reads_before_query + 1);
}

TEST(WaitPublished, AnErrorThatAStreamReportsEndsTheWait) {
  FakeCheck f;
  f.query_fails = true;
  EXPECT_THROW((void)f.wait(), std::runtime_error);
  EXPECT_EQ(f.queries, 1);
  EXPECT_EQ(f.whats, 0) << "the stream's own error, not the wait's";
}

}  // namespace
}  // namespace ch13
