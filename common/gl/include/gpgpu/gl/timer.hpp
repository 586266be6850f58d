/// @file timer.hpp
/// @brief Timing GL work on the GPU with GL_TIME_ELAPSED queries, and on the host clock.
///
/// GL calls only queue commands; the GPU runs them later. A GL_TIME_ELAPSED query measures the
/// GPU's time between its begin and end in the command stream. The host time is taken between two
/// glFinish() calls, so it covers the same work plus the driver's overheads. Where the context
/// has no usable timer query (ContextInfo::timer_query, whose no_timer_reason says why), the GPU
/// time is the host time, and name() says so.
#pragma once
#include <functional>
#include <string>

#include "gpgpu/gl/context.hpp"
#include "gpgpu/gl/objects.hpp"

namespace gpgpu::gl {

/// Seconds one piece of work took.
struct GlTiming {
  double gpu_seconds = 0;   ///< from the timer query (or the wall clock without one)
  double wall_seconds = 0;  ///< host clock between glFinish() before and after
};

class GpuTimer {
 public:
  /// Uses GL_TIME_ELAPSED queries when the context has them (ContextInfo::timer_query).
  explicit GpuTimer(const ContextInfo& info);
  /// Runs `work` (GL calls) between glFinish() calls, inside a GL_TIME_ELAPSED query.
  GlTiming time(const std::function<void()>& work);
  [[nodiscard]] bool uses_query() const { return uses_query_; }
  /// "GL_TIME_ELAPSED" or "host clock after glFinish".
  [[nodiscard]] std::string name() const { return name(uses_query_); }
  /// The name of the timer a context gets (for result rows, before any timer exists).
  [[nodiscard]] static std::string name(const ContextInfo& info) { return name(info.timer_query); }

 private:
  static std::string name(bool uses_query);
  bool uses_query_;
  Query query_;
};

}  // namespace gpgpu::gl
