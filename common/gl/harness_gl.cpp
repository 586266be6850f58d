// The GL backend's hooks for the generic test and benchmark mains: a test executable skips
// (exit 77) where no EGL display with an OpenGL 3.3+ core context can be made, and a benchmark
// records which renderer it ran on (GPU or llvmpipe makes all the difference).
#include "harness.hpp"

#ifdef GPGPU_HARNESS_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include "gpgpu/errors.hpp"
#include "gpgpu/gl/context.hpp"

namespace gpgpu::harness {

std::optional<std::string> backend_missing() {
  try {
    const gl::HeadlessContext context;
    return std::nullopt;
  } catch (const BackendUnavailable& e) {
    return std::string("no OpenGL through EGL: ") + e.what();
  }
}

void add_backend_context() {
#ifdef GPGPU_HARNESS_BENCHMARK
  const gl::HeadlessContext context;
  const gl::ContextInfo& info = context.info();
  benchmark::AddCustomContext("gl_renderer", info.renderer);
  benchmark::AddCustomContext("gl_vendor", info.vendor);
  benchmark::AddCustomContext("gl_version", info.version);
  benchmark::AddCustomContext("gl_platform", info.platform + ", " + info.egl);
  benchmark::AddCustomContext("gl_software_renderer", info.software ? "yes" : "no");
#endif
}

}  // namespace gpgpu::harness
