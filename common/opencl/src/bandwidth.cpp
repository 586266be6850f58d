// Buffer-copy bandwidth: the copy command and a copy kernel, timed with profiling events.
#include "gpgpu/opencl/bandwidth.hpp"

#include <algorithm>

#include "embedded/copy_cl.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu::ocl {

std::string CopyBandwidth::limit_name() const {
  return std::string(command_gbs >= kernel_gbs ? "buffer copy (clEnqueueCopyBuffer)" : "buffer copy (copy kernel)") +
         ", " + format_bytes(static_cast<double>(bytes));
}

CopyBandwidth measure_copy_bandwidth(Runtime& runtime, std::size_t max_bytes, int repeats) {
  const DeviceInfo& info = runtime.info();
  const std::size_t kWorkGroup = std::min<std::size_t>(256, info.max_work_group_size);
  // Two buffers, each within the per-buffer limit and together well inside device memory;
  // a whole number of work-groups of float4s.
  std::size_t bytes = std::min<std::size_t>({max_bytes, static_cast<std::size_t>(info.max_alloc_bytes),
                                             static_cast<std::size_t>(info.global_mem_bytes / 8)});
  bytes = bytes / (16 * kWorkGroup) * (16 * kWorkGroup);
  CopyBandwidth result;
  result.bytes = bytes;
  if (bytes == 0) return result;

  cl::CommandQueue& queue = runtime.queue();
  cl::Buffer in = GPGPU_CL(cl::Buffer(runtime.context(), CL_MEM_READ_WRITE, bytes));
  cl::Buffer out = GPGPU_CL(cl::Buffer(runtime.context(), CL_MEM_READ_WRITE, bytes));
  GPGPU_CL(queue.enqueueFillBuffer(in, 1.0f, 0, bytes));  // touch both, so no first-use cost is timed
  GPGPU_CL(queue.enqueueFillBuffer(out, 0.0f, 0, bytes));

  const auto best_of = [&](const auto& enqueue) {
    double best = 0;
    for (int r = 0; r < repeats + 1; ++r) {  // the first run is a warm-up
      cl::Event done;
      enqueue(done);
      GPGPU_CL(done.wait());
      const double seconds = profiled_seconds(done, done);
      if (r > 0 && seconds > 0) best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds / 1e9);
    }
    return best;
  };
  result.command_gbs = best_of([&](cl::Event& e) { GPGPU_CL(queue.enqueueCopyBuffer(in, out, 0, 0, bytes, nullptr, &e)); });

  cl::Program program = runtime.build(embedded::copy_cl);
  cl::Kernel copy = GPGPU_CL(cl::Kernel(program, "copy_float4"));
  const cl_uint count = static_cast<cl_uint>(bytes / 16);
  GPGPU_CL(copy.setArg(0, in));
  GPGPU_CL(copy.setArg(1, out));
  GPGPU_CL(copy.setArg(2, count));
  result.kernel_gbs = best_of([&](cl::Event& e) {
    GPGPU_CL(queue.enqueueNDRangeKernel(copy, cl::NullRange, cl::NDRange(count), cl::NDRange(kWorkGroup), nullptr, &e));
  });
  return result;
}

}  // namespace gpgpu::ocl
