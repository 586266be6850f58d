/// @file stream_limit.hpp
/// @brief The OpenCL session's bandwidth limit for a kernel's read:write mix, measured in the same
/// run as the kernels it judges (the model is the CPU's, gpgpu/cpu_backend.hpp).
///
/// The kernel (common/opencl/kernels/stream.cl) reads `mix.reads` buffers and writes `mix.writes`
/// buffers of `mix.elements` floats: the read:write ratio and the working set of the kernel it
/// judges, so both land in the same level of the memory hierarchy. It runs at a few launch shapes,
/// the best counting; a 1:1 mix (a copy) also by the runtime's own clEnqueueCopyBuffer. Bytes
/// counted: mix.bytes(), what was read and written once each. OpenCL reports neither the memory
/// clock nor the bus width, so there is no theoretical bandwidth beside it (NaN).
#pragma once
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/opencl/runtime.hpp"

namespace gpgpu::ocl {

/// The stream kernel's source (embedded), built with -DREADS=R -DWRITES=W.
const EmbeddedText& stream_kernel_source();

/// The limits of one device, each mix measured once per run; the stream kernel is built once per
/// read:write pair, and that build is not the user's start-up (builds() keeps its times apart).
class StreamLimits {
 public:
  explicit StreamLimits(Runtime& runtime) : runtime_(runtime) {}

  /// The limit of `mix`: measured on first use, then the same Limit. Throws std::invalid_argument
  /// for a mix outside 1..16 reads, 1..12 writes, and UsageError for arrays the device cannot hold
  /// (one larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE, or all of them beyond 90% of its memory).
  Limit limit(const StreamMix& mix);

  /// (what was built, seconds) for each stream kernel built so far: "stream.cl 11:1".
  [[nodiscard]] const std::vector<std::pair<std::string, double>>& builds() const { return builds_; }

 private:
  const cl::Program& program(int reads, int writes);
  Limit measure(const cl::Program& program, const StreamMix& mix);

  Runtime& runtime_;
  std::map<std::pair<int, int>, cl::Program> programs_;
  std::map<std::tuple<int, int, std::size_t, int>, Limit> limits_;
  std::vector<std::pair<std::string, double>> builds_;
};

}  // namespace gpgpu::ocl
