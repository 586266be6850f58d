#include "gpgpu/cuda/check.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "gpgpu/errors.hpp"

namespace gpgpu::cuda {

std::string error_text(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // Clear a non-sticky error so that later calls do not report it again.
  (void)cudaGetLastError();
  throw ApiError(describe_failed_call(call, file, line, error_text(status)));
}

namespace {
thread_local int captures = 0;  // CaptureScopes alive on this thread
}

CaptureScope::CaptureScope() { ++captures; }
CaptureScope::~CaptureScope() { --captures; }

bool synchronous_launch_checks() {
#ifndef NDEBUG
  return true;
#else
  static const bool on = [] {
    const char* v = std::getenv("GPGPU_CUDA_SYNC");
    return v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
  }();
  return on;
#endif
}

void check_launch(const char* kernel, const char* file, int line) {
  const std::string what = std::string("launch of ") + kernel;
  check(cudaGetLastError(), what.c_str(), file, line);
  if (synchronous_launch_checks() && captures == 0) {
    const std::string sync = what + " (synchronised: GPGPU_CUDA_SYNC)";
    check(cudaDeviceSynchronize(), sync.c_str(), file, line);
  }
}

}  // namespace gpgpu::cuda
