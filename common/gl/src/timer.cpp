#include "gpgpu/gl/timer.hpp"

#include <stdexcept>

#include "gpgpu/gl/check.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::gl {

GpuTimer::GpuTimer(const ContextInfo& info) : uses_query_(info.timer_query) {}

namespace {
// GL allows one GL_TIME_ELAPSED query at a time: a second glBeginQuery inside the first fails with
// GL_INVALID_OPERATION, and the first one would then never end. Refused here on every context, so
// a nesting caught on llvmpipe (no timer query) is caught before it reaches a GPU.
thread_local bool g_timing = false;
}  // namespace

GlTiming GpuTimer::time(const std::function<void()>& work) {
  if (g_timing) throw std::logic_error("GpuTimer::time inside another GpuTimer::time: GL times one interval at a time");
  GlTiming t;
  GPGPU_GL(glFinish());  // nothing queued earlier may count
  Stopwatch clock;
  if (uses_query_) GPGPU_GL(glBeginQuery(GL_TIME_ELAPSED, query_.id()));
  g_timing = true;
  try {
    work();
  } catch (...) {  // end the interval, or every later query of this context fails
    g_timing = false;
    if (uses_query_) glEndQuery(GL_TIME_ELAPSED);
    throw;
  }
  g_timing = false;
  if (uses_query_) GPGPU_GL(glEndQuery(GL_TIME_ELAPSED));
  GPGPU_GL(glFinish());
  t.wall_seconds = clock.seconds();
  t.gpu_seconds = t.wall_seconds;
  if (uses_query_) {
    GLuint64 nanoseconds = 0;
    GPGPU_GL(glGetQueryObjectui64v(query_.id(), GL_QUERY_RESULT, &nanoseconds));  // waits for the result
    t.gpu_seconds = 1e-9 * static_cast<double>(nanoseconds);
  }
  return t;
}

std::string GpuTimer::name(bool uses_query) { return uses_query ? "GL_TIME_ELAPSED" : "host clock after glFinish"; }

}  // namespace gpgpu::gl
