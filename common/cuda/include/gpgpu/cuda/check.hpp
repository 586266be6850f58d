/// @file check.hpp
/// @brief Every CUDA runtime call and every kernel launch is checked, in one line.
///
/// @code
///   GPGPU_CUDA_CHECK(cudaMalloc(&p, bytes));   // throws gpgpu::ApiError on failure
///   kernel<<<grid, block>>>(...);
///   GPGPU_CUDA_CHECK_LAUNCH("jacobi_simple");   // launch errors (bad configuration, ...)
/// @endcode
/// The message names the call, the file and line, and CUDA's own name and text of the error, e.g.
/// `cudaMalloc(&p, bytes) failed at buffers.cpp:12: cudaErrorMemoryAllocation: out of memory`.
///
/// Kernels run asynchronously: an error inside a kernel (an illegal address) surfaces at the next
/// synchronising call. With the environment variable GPGPU_CUDA_SYNC=1 (and in Debug builds)
/// GPGPU_CUDA_CHECK_LAUNCH also synchronises, so the error is reported at the launch that caused it
/// (use it with compute-sanitizer; it slows every launch down).
#pragma once
#include <string>

#include <cuda_runtime_api.h>

namespace gpgpu::cuda {

/// Throws gpgpu::ApiError describing `call` unless `status` is cudaSuccess.
void check(cudaError_t status, const char* call, const char* file, int line);

/// cudaGetLastError() after a launch (and cudaDeviceSynchronize() when synchronous checks are on).
void check_launch(const char* kernel, const char* file, int line);

/// True when launches are checked synchronously (GPGPU_CUDA_SYNC=1 or a Debug build).
bool synchronous_launch_checks();

/// While one is alive, launch checks on this thread do not synchronise: a stream capture (a CUDA
/// graph being recorded) forbids it. Errors of the captured kernels surface when the graph runs.
class CaptureScope {
 public:
  CaptureScope();
  ~CaptureScope();
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;
};

/// "cudaErrorNoDevice: no CUDA-capable device is detected".
std::string error_text(cudaError_t status);

}  // namespace gpgpu::cuda

/// Checks one CUDA runtime call; throws gpgpu::ApiError with CUDA's error name and text.
#define GPGPU_CUDA_CHECK(call) ::gpgpu::cuda::check((call), #call, __FILE__, __LINE__)

/// Checks the launch just made (configuration errors now, kernel faults with GPGPU_CUDA_SYNC=1).
#define GPGPU_CUDA_CHECK_LAUNCH(kernel_name) ::gpgpu::cuda::check_launch((kernel_name), __FILE__, __LINE__)
