// The limit that judges the exchange: what cudaMemcpyPeerAsync moves between two GPUs, both ways at
// once (as the exchange does), for large copies (the link's bandwidth) and for one row (its
// latency at this width, the floor of any exchange that copies).
#include <algorithm>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/timing.hpp"
#include "gpu_slab.hpp"
#include "multi_gpu_solvers.hpp"
#include "scaling_chapter.hpp"

namespace ch13 {
namespace {

// Seconds of `reps` copies of `bytes` a -> b and b -> a at once, on one stream per direction; best of 5.
double both_ways(int a, int b, std::size_t bytes, int reps) {
  const DeviceScope restore(a);
  gpgpu::cuda::DeviceBuffer<char> on_a(bytes), on_a_in(bytes);
  on_a.fill_bytes(0);  // copies of defined bytes (compute-sanitizer's initcheck)
  Stream from_a;
  GPGPU_CUDA_CHECK(cudaSetDevice(b));
  gpgpu::cuda::DeviceBuffer<char> on_b(bytes), on_b_in(bytes);
  on_b.fill_bytes(0);
  Stream from_b;
  double best = 1e30;
  for (int sample = 0; sample < 6; ++sample) {  // the first sample warms up
    GPGPU_CUDA_CHECK(cudaSetDevice(a));
    GPGPU_CUDA_CHECK(cudaDeviceSynchronize());
    GPGPU_CUDA_CHECK(cudaSetDevice(b));
    GPGPU_CUDA_CHECK(cudaDeviceSynchronize());
    const gpgpu::Stopwatch clock;
    for (int r = 0; r < reps; ++r) {
      GPGPU_CUDA_CHECK(cudaMemcpyPeerAsync(on_b_in.get(), b, on_a.get(), a, bytes, from_a.get()));
      GPGPU_CUDA_CHECK(cudaMemcpyPeerAsync(on_a_in.get(), a, on_b.get(), b, bytes, from_b.get()));
    }
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(from_a.get()));
    GPGPU_CUDA_CHECK(cudaStreamSynchronize(from_b.get()));
    if (sample > 0) best = std::min(best, clock.seconds() / reps);
  }
  return best;
}

}  // namespace

PeerLink measure_link_of_gpus_0_and_1(std::size_t row_bytes) {
  PeerLink link;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    (void)cudaGetLastError();
    return link;
  }
  const int a = 0, b = 1;
  const bool direct = peers(a, b);
  if (direct) enable_peer_access(a, b);  // as the variants will: copies then go over NVLink
  link.measured = true;
  link.name = "cudaMemcpyPeerAsync GPU " + std::to_string(a) + " <-> " + std::to_string(b) + ", both ways at once" +
              (direct ? " (peer access)" : " (no peer access: through the host)");
  constexpr std::size_t kLarge = 256u << 20;
  link.gbs_each_way = static_cast<double>(kLarge) / both_ways(a, b, kLarge, 4) / 1e9;
  link.row_exchange_us = both_ways(a, b, row_bytes, 200) * 1e6;
  return link;
}

}  // namespace ch13
