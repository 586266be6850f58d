/// @file watchdog.hpp
/// @brief Fails a GoogleTest check that has not finished after a time limit, naming the test that
/// was running (and, if the check says, what in it), then ends the process: a student's code that
/// loops for ever would otherwise hang the check until CTest's timeout, which names nothing. Exercise
/// checks register one with a limit well below their CTest timeout of a minute:
///
/// @code
///   [[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(40));
/// @endcode
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

namespace gpgpu::harness {

class Watchdog : public ::testing::Environment {
 public:
  /// `running`, when given, says what the check is doing (read from the watchdog's thread: keep what
  /// it reads atomic).
  explicit Watchdog(std::chrono::seconds limit, std::function<std::string()> running = {})
      : limit_(limit), running_(std::move(running)) {}

  void SetUp() override {
    thread_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (done_changed_.wait_for(lock, limit_, [this] { return done_; })) return;
      const std::string what = running_ ? ": " + running_() : std::string();
      std::printf("\n[  FAILED  ] %s did not finish in %lld s%s (an endless loop?)\n", test_.c_str(),
                  static_cast<long long>(limit_.count()), what.c_str());
      std::fflush(stdout);
      std::_Exit(1);
    });
  }
  void TearDown() override {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_one();
    thread_.join();
  }
  /// Keeps the watchdog's record of the test that is running (GoogleTest owns it: add_watchdog).
  class TestNames : public ::testing::EmptyTestEventListener {
   public:
    explicit TestNames(Watchdog& watchdog) : watchdog_(watchdog) {}
    void OnTestStart(const ::testing::TestInfo& info) override {
      const std::lock_guard<std::mutex> lock(watchdog_.mutex_);
      watchdog_.test_ = std::string(info.test_suite_name()) + "." + info.name();
    }

   private:
    Watchdog& watchdog_;
  };

 private:
  std::chrono::seconds limit_;
  std::function<std::string()> running_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::string test_ = "the check";
};

/// Registers a Watchdog for the whole run, and its record of the running test (GoogleTest owns both).
inline Watchdog* add_watchdog(std::chrono::seconds limit, std::function<std::string()> running = {}) {
  auto* watchdog = new Watchdog(limit, std::move(running));
  ::testing::AddGlobalTestEnvironment(watchdog);
  ::testing::UnitTest::GetInstance()->listeners().Append(new Watchdog::TestNames(*watchdog));
  return watchdog;
}

}  // namespace gpgpu::harness
