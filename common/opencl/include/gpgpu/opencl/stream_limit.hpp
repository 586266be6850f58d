/// @file stream_limit.hpp
/// @brief The OpenCL backend's bandwidth limit for a kernel's read:write mix, measured in the same
/// run as the kernels it judges (the model is the CPU's, gpgpu/cpu_backend.hpp).
///
/// An OpenCL C kernel (common/opencl/kernels/stream.cl) reads `mix.reads` buffers and writes
/// `mix.writes` buffers of `mix.elements` floats, in float4s with a scalar tail: the same
/// read:write ratio and the same working set as the kernel it judges, so both land in the same
/// level of the memory hierarchy (1:1 is a copy). It runs at a few work-group sizes and global
/// sizes (one float4 per work-item at five work-group sizes, or a few groups per compute unit in a
/// grid-stride loop); each launch shape is warmed up, then run as repetitions enqueued back to back
/// (as a solver's iterations are), each launch timed by its own profiling events and the launches'
/// device times summed: the gaps between launches, the host's enqueueing, are no part of it (they
/// grow with the kernel's buffer arguments, up to 28 here against a chapter kernel's few), so no
/// variant, timed from its first launch's start to its last one's end, can beat the limit by
/// launching with fewer gaps. The best shape counts. Bytes counted: mix.bytes(), what was read and
/// written once each.
///
/// OpenCL reports neither the memory clock nor the bus width, so there is no theoretical bandwidth
/// beside the measured limit (Limit::theoretical_gbs is NaN).
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/opencl/runtime.hpp"

namespace gpgpu::ocl {

/// The widest mix the stream kernel takes (the CPU limit's: 16 arrays read, 12 written).
inline constexpr int kMaxStreamReads = 16;
inline constexpr int kMaxStreamWrites = 12;

/// The stream kernel's source (embedded), built with -DREADS=R -DWRITES=W.
const EmbeddedText& stream_kernel_source();

/// The best launch shape of one measurement.
struct StreamMeasurement {
  double gbs = 0;               ///< 1e9 B/s, mix.bytes() per launch
  std::string kernel;           ///< "stream" (one float4 per work-item), "stream_loop" or "clEnqueueCopyBuffer"
  std::size_t work_group = 0;   ///< work-items per group of the best shape (0 for the runtime's copy)
  std::size_t global = 0;       ///< work-items of the best shape
  int repetitions = 0;          ///< launches per timed sample of the best shape
  int shapes = 0;               ///< launch shapes tried
};

/// Runs the stream kernel of `program` (stream.cl built for mix.reads and mix.writes) over fresh
/// buffers of mix.elements floats, at a few launch shapes; a 1:1 mix also by the runtime's own
/// clEnqueueCopyBuffer (a copy is that mix); the best counts. Refuses (UsageError) arrays the device cannot hold: one larger
/// than CL_DEVICE_MAX_MEM_ALLOC_SIZE, or all of them beyond 90% of its memory.
StreamMeasurement measure_stream(Runtime& runtime, const cl::Program& program, const StreamMix& mix);

/// The limits of one device, each mix measured once per run; the stream kernel is built once per
/// read:write pair, and that build is not the user's start-up (builds() keeps its times apart).
class StreamLimits {
 public:
  explicit StreamLimits(Runtime& runtime) : runtime_(runtime) {}

  /// The limit of `mix`: measured on first use, then the same Limit. Throws std::invalid_argument
  /// for a mix outside 1..16 reads, 1..12 writes, and UsageError for arrays that do not fit.
  Limit limit(const StreamMix& mix);

  /// (what was built, seconds) for each stream kernel built so far: "stream.cl 11:1".
  [[nodiscard]] const std::vector<std::pair<std::string, double>>& builds() const { return builds_; }

 private:
  const cl::Program& program(int reads, int writes);

  Runtime& runtime_;
  std::map<std::pair<int, int>, cl::Program> programs_;
  std::map<std::tuple<int, int, std::size_t, int>, Limit> limits_;
  std::vector<std::pair<std::string, double>> builds_;
};

}  // namespace gpgpu::ocl
