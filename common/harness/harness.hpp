/// @file harness.hpp
/// @brief The hooks between the generic test/benchmark mains and one backend.
///
/// Each backend provides a small library (gpgpu_harness_cpu here; gpgpu_harness_cuda, _opencl and _gl in
/// the backend folders of common/) that defines both functions. gpgpu_add_test() and gpgpu_add_benchmark() link
/// the right one, so a CUDA test executable skips (exit 77) on a machine without a GPU.
#pragma once
#include <optional>
#include <string>

namespace gpgpu::harness {

/// Why the backend cannot run here (no device, no platform, no display), or nullopt if it can.
std::optional<std::string> backend_missing();

/// Adds the backend's device description to the Google Benchmark context (JSON "context").
void add_backend_context();

}  // namespace gpgpu::harness
