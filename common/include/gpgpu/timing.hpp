/// @file timing.hpp
/// @brief Host wall-clock timing and the statistics reported for repeated runs.
#pragma once
#include <chrono>
#include <functional>
#include <vector>

namespace gpgpu {

/// Wall-clock stopwatch on the monotonic clock.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  /// Seconds since construction or the last restart().
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Median of the samples (mean of the middle two for an even count); NaN when empty.
double median(std::vector<double> samples);
/// Smallest sample; NaN when empty.
double minimum(const std::vector<double>& samples);
/// Largest sample; NaN when empty.
double maximum(const std::vector<double>& samples);

/// Runs `run_once` `warmup` times untimed, then `repeat` times, and returns the seconds each timed
/// call reported (the call measures itself: host clock, CUDA events, profiling events, ...).
std::vector<double> repeat_runs(int warmup, int repeat, const std::function<double()>& run_once);

}  // namespace gpgpu
