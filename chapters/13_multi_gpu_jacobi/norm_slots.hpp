/// @file norm_slots.hpp
/// @brief The host's side of an update norm that the GPU publishes into mapped host memory
/// (published_norm.hpp): which of two slots each check uses and the number it is published under,
/// which launch publishes it, how the host reads a slot, and how it waits for one, never forever. No CUDA here: the test
/// (test_ch13_norm_slots.cpp) runs it on the CPU with a fake slot, clock and streams.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace ch13 {

/// Checks numbered 0, 1, 2, ... in the order they start, at most two in flight (a check every
/// iteration, overlapped, starts the next before the host reads the last). Check n uses slot n mod 2
/// and is published under the number n + 1: a slot's number only grows, and 0 means "never".
class CheckSequence {
 public:
  struct Check {
    std::size_t slot;
    std::uint64_t sequence;
  };

  /// The next check. A third in flight would reuse the slot of one not yet read: std::logic_error.
  Check start() {
    if (in_flight() == 2) throw std::logic_error("a third update norm started before the first was read");
    return numbered(started_++);
  }
  /// The check started last, whose launches are being made.
  [[nodiscard]] Check last_started() const {
    if (started_ == 0) throw std::logic_error("no update norm was started");
    return numbered(started_ - 1);
  }
  /// The oldest check started and not yet read, which is read now.
  Check read() {
    if (in_flight() == 0) throw std::logic_error("an update norm read that was never started");
    return numbered(read_++);
  }
  [[nodiscard]] int in_flight() const { return static_cast<int>(started_ - read_); }

 private:
  static Check numbered(std::uint64_t n) { return {static_cast<std::size_t>(n % 2), n + 1}; }
  std::uint64_t started_ = 0, read_ = 0;
};

//! [publisher]
/// Which launch publishes each check (13_peer_store.cu, publish_norm). The first launch after the
/// check's last one carries it: that launch starts once all of them have finished, so the sum it
/// reads is complete. A check that the host reads before any such launch comes (--check-overlap off,
/// the last check of a run) is published by a kernel of its own, which the host launches then. At
/// most one check waits for its publisher: the next check's first launch publishes it.
class PendingPublication {
 public:
  /// Check `c`'s launches are all enqueued; the next launch publishes it.
  void end(CheckSequence::Check c) {
    if (waiting_) throw std::logic_error("an update norm ended before the one before it was published");
    waiting_ = c;
    ended_ = c.sequence;
  }
  [[nodiscard]] bool waiting() const { return waiting_.has_value(); }
  /// The check that the launch about to be made publishes, if one waits (no later launch does).
  std::optional<CheckSequence::Check> take_for_launch() { return std::exchange(waiting_, std::nullopt); }
  /// As the host reads check `c`: true if no launch has published it, so the host must launch its
  /// publisher now. A check read before its launches ended would never be published: logic_error.
  bool take_for_read(CheckSequence::Check c) {
    if (c.sequence > ended_) throw std::logic_error("an update norm read before its launches ended");
    if (!waiting_ || waiting_->sequence != c.sequence) return false;
    waiting_.reset();
    return true;
  }

 private:
  std::optional<CheckSequence::Check> waiting_;
  std::uint64_t ended_ = 0;
};
//! [publisher]

//! [read_slot]
/// Check `sequence`'s value if `slot` holds it yet (a Slot has a double `value` and an unsigned long
/// long `sequence`: jacobi_args.hpp's PublishedNorm). The GPU's publishing thread writes the value, then
/// __threadfence_system(), then the number: every observer, this CPU included, sees the value land
/// before the number. The host loads the number with acquire order, then the value: neither the
/// compiler nor the CPU may move the value's load before the number's, so a value read after the
/// right number is that check's. (Nothing writes the slot again until the host has read it: the
/// slot's next check starts after this read, CheckSequence.) std::atomic_ref, not volatile: volatile
/// orders nothing on a CPU that reorders loads (Arm's); the loads are plain ones on x86.
template <class Slot>
[[nodiscard]] std::optional<double> published_value(Slot& slot, std::uint64_t sequence) {
  static_assert(std::atomic_ref<unsigned long long>::is_always_lock_free && std::atomic_ref<double>::is_always_lock_free);
  if (std::atomic_ref<unsigned long long>(slot.sequence).load(std::memory_order_acquire) != sequence) return std::nullopt;
  return std::atomic_ref<double>(slot.value).load(std::memory_order_relaxed);
}
//! [read_slot]

//! [wait_rule]
/// Waits for a published value, never forever. `read()` returns the value once it is there (a load
/// of host memory: no API call, so a value already there costs nothing). Every `query_every` of
/// `now()`'s clock the host also asks `streams_idle()` whether the streams that carry the check's
/// launches have finished; it throws when one reports an error (a failed kernel makes the query
/// return it). Streams that have finished without the value never will publish it: the host reads
/// the slot once more (the value may have landed between its read and the query) and gives up with
/// a std::runtime_error whose message begins with `what()` (called only then). So the wait ends
/// with the value, with the error of a failed launch, or once the work queued before it has ended:
/// bounded by that work, as a cudaEventSynchronize would be, at one query per `query_every`.
template <class Read, class StreamsIdle, class Now, class What>
double wait_published(Read&& read, StreamsIdle&& streams_idle, Now&& now, std::chrono::nanoseconds query_every,
                      What&& what) {
  auto next_query = now() + query_every;
  for (;;) {
    if (const std::optional<double> value = read()) return *value;
    if (now() < next_query) continue;
    if (streams_idle()) {
      if (const std::optional<double> value = read()) return *value;
      throw std::runtime_error(what() + " was never published: the streams of its launches finished without it "
                                      "(no launch after them published it, or a kernel ended early)");
    }
    next_query = now() + query_every;
  }
}
//! [wait_rule]

}  // namespace ch13
