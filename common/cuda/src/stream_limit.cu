#include "gpgpu/cuda/stream_limit.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/device.hpp"

namespace gpgpu::cuda {
namespace {

// The arrays of one measurement, passed by value: the kernel reads the pointers from its
// parameters, so a loop over a compile-time count of them is straight-line code.
struct StreamArrays {
  const float* in[kMaxStreamReads];
  float* out[kMaxStreamWrites];
};

__device__ __forceinline__ void add(float4& s, const float4 v) {
  s.x += v.x;
  s.y += v.y;
  s.z += v.z;
  s.w += v.w;
}

// out_w[i] = in_0[i] + ... + in_{R-1}[i] for every output w: every array is read or written once,
// 16 bytes per thread and array, grid-stride over the float4s, then the last n % 4 floats one by
// one. The sum keeps every load live. Read-only loads (__ldg), as the Jacobi kernels of 07b use.
template <int R, int W>
__global__ void stream(StreamArrays a, std::size_t n) {
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t n4 = n / 4;
  for (std::size_t i = first; i < n4; i += stride) {
    float4 s = __ldg(reinterpret_cast<const float4*>(a.in[0]) + i);
#pragma unroll
    for (int r = 1; r < R; ++r) add(s, __ldg(reinterpret_cast<const float4*>(a.in[r]) + i));
#pragma unroll
    for (int w = 0; w < W; ++w) reinterpret_cast<float4*>(a.out[w])[i] = s;
  }
  for (std::size_t i = 4 * n4 + first; i < n; i += stride) {
    float s = __ldg(a.in[0] + i);
#pragma unroll
    for (int r = 1; r < R; ++r) s += __ldg(a.in[r] + i);
#pragma unroll
    for (int w = 0; w < W; ++w) a.out[w][i] = s;
  }
}

using StreamKernel = void (*)(StreamArrays, std::size_t);

template <int R, int... W>
std::array<StreamKernel, sizeof...(W)> writes_row(std::integer_sequence<int, W...>) {
  return {&stream<R, W + 1>...};
}
template <int... R>
std::array<std::array<StreamKernel, kMaxStreamWrites>, sizeof...(R)> stream_table(std::integer_sequence<int, R...>) {
  return {writes_row<R + 1>(std::make_integer_sequence<int, kMaxStreamWrites>())...};
}

// kernel(R, W) streams R arrays in and W out (the runtime mix picks one of the 16 x 12 kernels).
StreamKernel kernel(int reads, int writes) {
  static const auto table = stream_table(std::make_integer_sequence<int, kMaxStreamReads>());
  return table[static_cast<std::size_t>(reads - 1)][static_cast<std::size_t>(writes - 1)];
}

// Timed samples of one launch shape, each about this long: enough launches back to back that the
// gaps between them are what the Jacobi iterations also see, not the event resolution.
constexpr double kSampleSeconds = 1e-3;
constexpr int kSamples = 3;

}  // namespace

StreamMeasurement measure_stream(const StreamMix& mix, int sm_count) {
  if (mix.reads < 1 || mix.reads > kMaxStreamReads || mix.writes < 1 || mix.writes > kMaxStreamWrites)
    throw std::invalid_argument("measure_stream: mix " + mix.str() + " outside 1..16 reads, 1..12 writes");
  require_device_memory(mix.bytes(), "the stream limit " + mix.str());
  const std::size_t n = std::max<std::size_t>(mix.elements * static_cast<std::size_t>(mix.element_bytes) / 4, 1);
  std::vector<DeviceBuffer<float>> storage;
  StreamArrays arrays{};
  for (int a = 0; a < mix.reads + mix.writes; ++a) {
    storage.emplace_back(n);
    storage.back().fill_bytes(0);
    if (a < mix.reads)
      arrays.in[a] = storage.back().get();
    else
      arrays.out[a - mix.reads] = storage.back().get();
  }
  const StreamKernel stream_kernel = kernel(mix.reads, mix.writes);

  // The launch shapes: a grid that fills every SM a few times over, and one thread per float4.
  std::vector<std::pair<int, int>> shapes;  // threads, blocks
  for (int threads : {256, 512})
    for (int per_sm : {2, 4, 8}) shapes.emplace_back(threads, per_sm * std::max(sm_count, 1));
  const std::size_t n4 = std::max<std::size_t>(n / 4, 1);
  shapes.emplace_back(256, static_cast<int>(std::min<std::size_t>((n4 + 255) / 256, 0x7fffffff)));

  StreamMeasurement best;
  best.shapes = static_cast<int>(shapes.size());
  EventTimer timer;
  for (const auto& [threads, blocks] : shapes) {
    const auto launch = [&, threads = threads, blocks = blocks] {
      stream_kernel<<<blocks, threads>>>(arrays, n);
      GPGPU_CUDA_CHECK_LAUNCH("stream (limit)");
    };
    launch();  // untimed: clocks up, caches warm
    timer.start();
    launch();
    timer.stop();
    const int launches = static_cast<int>(std::clamp(kSampleSeconds / std::max(timer.seconds(), 1e-7), 1.0, 1000.0));
    for (int sample = 0; sample < kSamples; ++sample) {
      timer.start();
      for (int l = 0; l < launches; ++l) launch();
      timer.stop();
      const double gbs = mix.bytes() * launches / timer.seconds() / 1e9;
      if (gbs > best.gbs) {
        best.gbs = gbs;
        best.threads = threads;
        best.blocks = blocks;
        best.launches = launches;
      }
    }
  }
  return best;
}

}  // namespace gpgpu::cuda
