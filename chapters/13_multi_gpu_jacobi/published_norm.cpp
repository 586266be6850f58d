// The mapped slots and sums of a published update norm, and the host's wait for a slot.
#include "published_norm.hpp"

#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "gpu_slab.hpp"

namespace ch13 {

using gpgpu::jacobi::cuda::NormPublication;
using gpgpu::jacobi::cuda::PublishedNorm;

bool can_map_host_memory(int device) {
  int can = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&can, cudaDevAttrCanMapHostMemory, device));
  return can != 0;
}

MappedNormSlots::MappedNormSlots() {
  int device = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  if (!can_map_host_memory(device))
    throw std::logic_error("GPU " + std::to_string(device) +
                           " cannot map host memory (cudaDevAttrCanMapHostMemory): the norm has nowhere to be published");
  host_ = gpgpu::cuda::PinnedBuffer<PublishedNorm>(2, cudaHostAllocMapped);
  for (PublishedNorm& slot : host_.span()) slot = {std::numeric_limits<double>::quiet_NaN(), 0};
  device_ = host_.device_pointer();
}

PublishedNorms::PublishedNorms() {
  sums_.fill_bytes(0);  // from here on the publishing thread zeroes each after its check
}

NormPublication PublishedNorms::publication(CheckSequence::Check c) {
  return {sum(c), slots_.on_device(c.slot), c.sequence};
}

//! [wait]
// The host's wait for a slot (norm_slots.hpp: the rule). While the value is not there the host
// rereads host memory; every 100 µs it asks each stream whether it has finished. cudaStreamQuery
// answers cudaErrorNotReady while work is queued, which the runtime may also keep as its "last
// error": cudaGetLastError clears it, so that a later launch check does not report it, and
// reports any other error there. Any other answer of the query is the error of a failed launch.
double PublishedNorms::wait(CheckSequence::Check c, int device, std::span<const cudaStream_t> streams) {
  const auto streams_idle = [&] {
    const DeviceScope on(device);
    bool idle = true;
    for (cudaStream_t s : streams) {
      const cudaError_t status = cudaStreamQuery(s);
      if (status == cudaErrorNotReady) {
        idle = false;
        const cudaError_t last = cudaGetLastError();
        if (last != cudaErrorNotReady) gpgpu::cuda::check(last, "cudaGetLastError (waiting for the update norm)", __FILE__, __LINE__);
        continue;
      }
      gpgpu::cuda::check(status, "cudaStreamQuery (waiting for the update norm)", __FILE__, __LINE__);
    }
    return idle;
  };
  const auto now = [] { return std::chrono::steady_clock::now(); };
  PublishedNorm& slot = slots_.on_host(c.slot);
  const auto what = [&] { return "GPU " + std::to_string(device) + "'s update norm of check " + std::to_string(c.sequence); };
  return wait_published([&] { return published_value(slot, c.sequence); }, streams_idle, now,
                        std::chrono::microseconds(100), what);
}
//! [wait]

}  // namespace ch13
