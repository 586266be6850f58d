#include "gpgpu/gl/timer.hpp"

#include "gpgpu/gl/check.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::gl {

GpuTimer::GpuTimer(const ContextInfo& info) : uses_query_(info.timer_query) {}

GlTiming GpuTimer::time(const std::function<void()>& work) {
  GlTiming t;
  GPGPU_GL(glFinish());  // nothing queued earlier may count
  Stopwatch clock;
  if (uses_query_) GPGPU_GL(glBeginQuery(GL_TIME_ELAPSED, query_.id()));
  work();
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
