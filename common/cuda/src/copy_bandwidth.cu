#include "gpgpu/cuda/copy_bandwidth.hpp"

#include <algorithm>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu::cuda {
namespace {

// Grid-stride float4 copy: every thread moves 16-byte vectors, enough bytes in flight per SM to
// saturate the memory system with a modest grid.
__global__ void copy_float4(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n4) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

template <typename Copy>
double best_seconds(int repetitions, Copy copy) {
  copy();  // untimed: first touch, clocks up
  EventTimer timer;
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    timer.start();
    copy();
    timer.stop();
    best = std::min(best, timer.seconds());
  }
  return best;
}

}  // namespace

std::string CopyBandwidth::limit_name() const {
  return std::string("device copy (") + (kernel_gbs > memcpy_gbs ? "float4 kernel" : "cudaMemcpy") + "), 2 x " +
         format_bytes(static_cast<double>(bytes_per_array));
}

CopyBandwidth measure_copy_bandwidth(std::size_t max_bytes_per_array, int repetitions) {
  std::size_t free = 0, total = 0;
  GPGPU_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const std::size_t bytes = std::min(max_bytes_per_array, free / 4) / 16 * 16;
  DeviceBuffer<float4> a(bytes / 16), b(bytes / 16);
  a.fill_bytes(0);
  b.fill_bytes(0);

  CopyBandwidth r;
  r.bytes_per_array = bytes;
  r.repetitions = repetitions;
  const double moved = 2.0 * static_cast<double>(bytes);  // read + written
  r.memcpy_gbs = moved / 1e9 / best_seconds(repetitions, [&] {
    GPGPU_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));
  });
  int device = 0, sms = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  r.kernel_gbs = moved / 1e9 / best_seconds(repetitions, [&] {
    copy_float4<<<sms * 8, 256>>>(a.get(), b.get(), a.size());
    GPGPU_CUDA_CHECK_LAUNCH("copy_float4");
  });
  return r;
}

const CopyBandwidth& copy_bandwidth_of_this_run() {
  static const CopyBandwidth measured = measure_copy_bandwidth();
  return measured;
}

}  // namespace gpgpu::cuda
