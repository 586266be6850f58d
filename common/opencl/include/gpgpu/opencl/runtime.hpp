/// @file runtime.hpp
/// @brief The handles every OpenCL program creates before its first kernel runs (platform,
/// device, context, command queue, programs), and the time each step takes.
///
/// CUDA's runtime API creates its context implicitly on the first call and links kernels at
/// build time; OpenCL makes every step explicit and compiles kernels from source when the program
/// runs. Paper 003 (section 6.6, Fig. 21) measured about 1.3 s of OpenCL start-up against a
/// negligible one for CUDA; StartupTimes splits ours into its parts so the chapter can show where
/// that time goes today.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpgpu/embedded_text.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/opencl/cl.hpp"
#include "gpgpu/opencl/device.hpp"

namespace gpgpu::ocl {

/// Seconds spent in each start-up step (host wall clock).
struct StartupTimes {
  double discovery_s = 0;  ///< clGetPlatformIDs, clGetDeviceIDs and the device queries
  double context_s = 0;    ///< clCreateContext
  double queue_s = 0;      ///< clCreateCommandQueue (with profiling)
  /// clCreateProgramWithSource + clBuildProgram of each program: (source path, seconds).
  std::vector<std::pair<std::string, double>> builds;
  [[nodiscard]] double build_s() const {
    double s = 0;
    for (const auto& b : builds) s += b.second;
    return s;
  }
  [[nodiscard]] double total() const { return discovery_s + context_s + queue_s + build_s(); }
};

/// {"discovery_s", "context_s", "queue_s", "builds": [{"source", "seconds"}], "build_s", "total_s"}.
void to_json(nlohmann::json& j, const StartupTimes& s);

/// A build log as if the compiler had honoured the `#line 1 "<path>"` that Runtime::build puts in
/// front of every source: NVIDIA's compiler ignores it and writes "<kernel>:N", N counting that
/// directive as line 1; this rewrites each such position to "<path>:N-1". Other logs pass unchanged.
std::string log_with_file_lines(const std::string& log, const std::string& path);

/// A program whose build failed: the message is one line, log() holds the compiler's output.
class BuildFailed : public ApiError {
 public:
  BuildFailed(const std::string& message, std::string log) : ApiError(message), log_(std::move(log)) {}
  [[nodiscard]] const std::string& log() const { return log_; }

 private:
  std::string log_;
};

/// One device with its context and an in-order command queue with profiling enabled.
class Runtime {
 public:
  /// Finds the device (select_device), creates the context and the queue, timing each step.
  explicit Runtime(const DeviceOptions& options);

  [[nodiscard]] const cl::Context& context() const { return context_; }
  [[nodiscard]] const cl::Device& device() const { return device_; }
  [[nodiscard]] cl::CommandQueue& queue() { return queue_; }
  [[nodiscard]] const DeviceInfo& info() const { return info_; }
  [[nodiscard]] const StartupTimes& startup() const { return startup_; }

  /// Compiles an embedded OpenCL C source for this device with "-cl-std=CL1.2" and `options`
  /// (e.g. "-DWG_SIZE=64"); the time counts as start-up. The source is compiled as if it were
  /// the file it came from (a `#line` directive), so compiler messages name
  /// kernels/jacobi/opencl/08_01_simple.cl. On failure the build log goes to stderr, headed by the file
  /// name, and BuildFailed is thrown.
  cl::Program build(const EmbeddedText& source, const std::string& options = {});

  /// The program of `source` and `options`, built (as build(), start-up) on first use and kept:
  /// each file is compiled once per run, however many variants run its kernels.
  const cl::Program& program(const EmbeddedText& source, const std::string& options = {});

  /// A program the user's code never needs (the stream limit's kernel): built as build() does,
  /// but its time is returned, not counted as start-up.
  struct Compiled {
    cl::Program program;
    double seconds = 0;
  };
  Compiled compile(const EmbeddedText& source, const std::string& options = {});

 private:
  DeviceInfo info_;
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  StartupTimes startup_;
  std::map<std::string, cl::Program> programs_;  ///< program(): key path + '\n' + options
};

/// The one runtime of a test or benchmark executable, on the device GPGPU_CL_PLATFORM /
/// GPGPU_CL_DEVICE / GPGPU_CL_TYPE choose, created on first use and kept until the process ends
/// (creating a context and building programs costs far more than the small runs of a test).
Runtime& shared_runtime();

/// Seconds from the start of `first` to the end of `last` on the device's own clock
/// (CL_PROFILING_COMMAND_START / _END; the queue must have profiling enabled).
double profiled_seconds(const cl::Event& first, const cl::Event& last);

/// Refuses (UsageError, exit 2) before anything is allocated: a buffer larger than
/// CL_DEVICE_MAX_MEM_ALLOC_SIZE, or buffers that together exceed 90% of CL_DEVICE_GLOBAL_MEM_SIZE.
void require_device_memory(const DeviceInfo& device, double total_bytes, double largest_buffer_bytes,
                           const std::string& what);

/// Rounds `n` up to a multiple of `multiple` (global NDRange sizes must be multiples of the
/// work-group size in OpenCL 1.2).
[[nodiscard]] constexpr std::size_t round_up(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace gpgpu::ocl
