// The stream limit: the read:write-matched kernel of common/opencl/kernels/stream.cl at a few launch shapes (and
// for a 1:1 mix the runtime's own copy), repetitions enqueued back to back, each timed by its own
// profiling events.
#include "stream_limit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "embedded/stream_cl.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu::ocl {
namespace {

// The widest mix the stream kernel takes (the CPU limit's: 16 arrays read, 12 written).
constexpr int kMaxReads = 16;
constexpr int kMaxWrites = 12;

// A timed sample lasts about this long (many repetitions of a cache-sized mix, one of a huge one),
// so that neither one launch's overhead nor the clock's resolution decides it.
constexpr double kSampleSeconds = 0.02;
constexpr int kMaxRepetitions = 1000;
constexpr int kSamples = 5;

// Work-group sizes tried (those the kernel allows). Global sizes: one float4 per work-item (kernel
// `stream`, every size: a working set of a few hundred KiB fills only a few compute units, and which
// group size fills them best differs from device to device), and a few groups per compute unit
// looping over the arrays (kernel `stream_loop`, the sizes CUDA's limit uses).
constexpr std::size_t kWorkGroups[] = {64, 128, 256, 512, 1024};
constexpr std::size_t kLoopWorkGroups[] = {64, 256, 1024};
constexpr std::size_t kGroupsPerComputeUnit = 4;

struct Shape {
  cl::Kernel* kernel;  // nullptr: the runtime's own copy, clEnqueueCopyBuffer (1:1 mixes only)
  const char* name;
  std::size_t global, local;
};

std::vector<Shape> launch_shapes(const Runtime& runtime, cl::Kernel& once, cl::Kernel& loop, std::size_t items) {
  const auto kernel_max = [&](const cl::Kernel& k) {
    return GPGPU_CL(k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(runtime.device()));
  };
  const std::size_t units = std::max<std::size_t>(runtime.info().compute_units, 1);
  std::vector<Shape> shapes;
  for (std::size_t wg : kWorkGroups)
    if (wg <= kernel_max(once)) shapes.push_back({&once, "stream", round_up(items, wg), wg});
  for (std::size_t wg : kLoopWorkGroups) {
    const std::size_t few = units * kGroupsPerComputeUnit * wg;
    if (wg <= kernel_max(loop) && few < round_up(items, wg)) shapes.push_back({&loop, "stream_loop", few, wg});
  }
  if (shapes.empty()) {  // a device with work-groups smaller than 64
    const std::size_t wg = kernel_max(once);
    shapes.push_back({&once, "stream", round_up(items, wg), wg});
  }
  return shapes;
}

}  // namespace

const EmbeddedText& stream_kernel_source() { return embedded::stream_cl; }

Limit StreamLimits::measure(const cl::Program& program, const StreamMix& mix) {
  const std::size_t n = std::max<std::size_t>(mix.elements * static_cast<std::size_t>(mix.element_bytes) / 4, 1);
  const std::size_t bytes = n * sizeof(float);
  const int arrays = mix.reads + mix.writes;
  require_device_memory(runtime_.info(), static_cast<double>(arrays) * static_cast<double>(bytes),
                        static_cast<double>(bytes), "the stream limit of mix " + mix.str());
  if (n > std::numeric_limits<cl_uint>::max())
    throw std::invalid_argument("the OpenCL stream kernel indexes arrays of at most 2^32 - 1 floats, not " +
                                std::to_string(n));

  cl::CommandQueue& queue = runtime_.queue();
  cl::Kernel once = GPGPU_CL(cl::Kernel(program, "stream"));
  cl::Kernel loop = GPGPU_CL(cl::Kernel(program, "stream_loop"));
  std::vector<cl::Buffer> buffers;
  for (int a = 0; a < arrays; ++a) {
    buffers.push_back(GPGPU_CL(cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, bytes)));
    // Written once before any timing, so no first-touch cost (page faults, lazy allocation) is timed.
    GPGPU_CL(queue.enqueueFillBuffer(buffers.back(), a < mix.reads ? 1.0f : 0.0f, 0, bytes));
  }
  for (cl::Kernel* k : {&once, &loop}) {
    GPGPU_CL(k->setArg(0, static_cast<cl_uint>(n)));
    for (std::size_t a = 0; a < buffers.size(); ++a) GPGPU_CL(k->setArg(static_cast<cl_uint>(a + 1), buffers[a]));
  }
  GPGPU_CL(queue.finish());

  std::vector<Shape> shapes = launch_shapes(runtime_, once, loop, std::max<std::size_t>(n / 4, 1));
  // A 1:1 mix is a copy, and the runtime has its own, which may beat any kernel (PoCL's is memcpy):
  // no variant's copy may exceed the limit that judges it.
  const bool copy = mix.reads == 1 && mix.writes == 1;
  if (copy) shapes.push_back({nullptr, "clEnqueueCopyBuffer", 0, 0});
  // `count` launches back to back, each with its own event; the sum of their device times (each
  // from its start to its end). A launch's time on the device clock is what a variant's timing is
  // made of; the gaps between launches are not: they are the host's cost of enqueueing, which on
  // NVIDIA's OpenCL grows with the buffer arguments (this kernel has up to 28, a chapter's a few),
  // and at a working set of a few hundred KiB they can be most of a first-to-last time (a limit
  // below the variants it judges). Summed kernel times bound every variant's
  // first-to-last time from below, so no variant can beat its limit by launching with fewer gaps.
  std::vector<cl::Event> events;
  const auto run = [&](const Shape& s, int count) {
    events.assign(static_cast<std::size_t>(count), cl::Event());
    for (cl::Event& event : events) {
      if (s.kernel == nullptr)
        GPGPU_CL(queue.enqueueCopyBuffer(buffers[0], buffers[1], 0, 0, bytes, nullptr, &event));
      else
        GPGPU_CL(queue.enqueueNDRangeKernel(*s.kernel, cl::NullRange, cl::NDRange(s.global), cl::NDRange(s.local),
                                            nullptr, &event));
    }
    GPGPU_CL(events.back().wait());
    double seconds = 0;
    for (const cl::Event& event : events) seconds += profiled_seconds(event, event);
    return seconds;
  };

  Limit best;
  best.mix = mix.str();
  best.theoretical_gbs = std::nan("");  // OpenCL reports no memory clock or bus width
  const std::string kernel = "stream " + std::to_string(mix.reads) + ":" + std::to_string(mix.writes) +
                             " float4 kernel" + (copy ? " or clEnqueueCopyBuffer" : "") + ", best of " +
                             std::to_string(shapes.size()) + " launch shapes (";
  for (const Shape& s : shapes) {
    run(s, 1);  // untimed: a driver may compile for this work-group size at its first launch (PoCL)
    const double once_s = run(s, 1);
    const int count =
        static_cast<int>(std::clamp(kSampleSeconds / std::max(once_s, 1e-9), 1.0, double{kMaxRepetitions}));
    for (int sample = 0; sample < kSamples; ++sample) {
      const double seconds = run(s, count);
      const double gbs = mix.bytes() * count / seconds / 1e9;
      if (seconds > 0 && gbs > best.gbs) {
        best.gbs = gbs;
        best.name = kernel + s.name + (s.kernel == nullptr ? "" : ", work-groups of " + std::to_string(s.local) +
                                                                      ", global " + std::to_string(s.global)) + ")";
      }
    }
  }
  return best;
}

const cl::Program& StreamLimits::program(int reads, int writes) {
  auto it = programs_.find({reads, writes});
  if (it == programs_.end()) {
    Runtime::Compiled c = runtime_.compile(stream_kernel_source(), "-DREADS=" + std::to_string(reads) +
                                                                       " -DWRITES=" + std::to_string(writes));
    builds_.emplace_back("stream.cl " + std::to_string(reads) + ":" + std::to_string(writes), c.seconds);
    it = programs_.emplace(std::make_pair(reads, writes), std::move(c.program)).first;
  }
  return it->second;
}

Limit StreamLimits::limit(const StreamMix& mix) {
  if (mix.reads < 1 || mix.reads > kMaxReads || mix.writes < 1 || mix.writes > kMaxWrites)
    throw std::invalid_argument("OpenCL stream limit: mix " + mix.str() + " outside 1..16 reads, 1..12 writes");
  const auto key = std::make_tuple(mix.reads, mix.writes, mix.elements, mix.element_bytes);
  auto it = limits_.find(key);
  if (it == limits_.end()) it = limits_.emplace(key, measure(program(mix.reads, mix.writes), mix)).first;
  return it->second;
}

}  // namespace gpgpu::ocl
