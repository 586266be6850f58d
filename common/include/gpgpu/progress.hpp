/// @file progress.hpp
/// @brief A progress line on the terminal for runs longer than a couple of seconds.
///
/// It writes to stderr only when stderr is a terminal, never into CSV/JSON output or a pipe,
/// starts after `delay` seconds, refreshes at most four times a second and erases itself.
#pragma once
#include <string>

#include "gpgpu/timing.hpp"

namespace gpgpu {

/// True when stderr is an interactive terminal.
bool stderr_is_terminal();

class Progress {
 public:
  explicit Progress(std::string label, double delay_seconds = 2.0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  /// Reports `done` of `total` steps; cheap enough to call every iteration.
  void update(long long done, long long total);

 private:
  std::string label_;
  double delay_;
  bool enabled_;
  bool shown_ = false;
  double last_ = 0;
  Stopwatch clock_;
};

}  // namespace gpgpu
