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

// One float4 of an input: a read-only load (__ldg, as the Jacobi kernels of 07b use), or with
// `hints` the same load asking the L2 to fetch 256 bytes around it (a Hopper prefetch size), which can
// keep more DRAM rows busy. Either is what a kernel may do; the limit takes the faster.
__device__ __forceinline__ float4 load(const float4* p, int hints) {
#if __CUDA_ARCH__ >= 800  // the prefetch size exists from sm_80 on; older GPUs get the plain load twice
  if (hints != 0) {
    float4 v;
    asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
  }
#endif
  (void)hints;
  return __ldg(p);
}

// out_w[i] = in_0[i] + ... + in_{R-1}[i] for every output w: every array is read or written once
// per pass, 16 bytes per thread and array and step, grid-stride over the float4s, then the last
// n % 4 floats one by one. The sum keeps every load live. With U = 2 a thread issues the loads of two
// grid-stride steps before it stores either: twice the bytes in flight per thread.
// `passes` sweeps run inside one launch, for a working set inside the cache, whose sweep lasts only
// microseconds: then the gaps between launches, which are no property of the memory, do not count.
// Each pass starts `rotation` float4s further round the arrays (mod n/4), so that no block meets the
// data it read in its own L1 in the pass before: the cache measured is the L2, as it is for kernels
// that read each array once per launch (L1 does not keep global data from one launch to the next).
template <int R, int W, int U>
__global__ void stream(StreamArrays a, std::size_t n, int passes, std::size_t rotation, int hints) {
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t n4 = n / 4;
  for (int pass = 0; pass < passes; ++pass) {
    const std::size_t start = n4 > 0 ? static_cast<std::size_t>(pass) * rotation % n4 : 0;
    for (std::size_t i = first; i < n4; i += U * stride) {
      float4 s[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::size_t step = i + u * stride;
        if (U > 1 && step >= n4) break;
        const std::size_t k = step + start < n4 ? step + start : step + start - n4;
        s[u] = load(reinterpret_cast<const float4*>(a.in[0]) + k, hints);
#pragma unroll
        for (int r = 1; r < R; ++r) add(s[u], load(reinterpret_cast<const float4*>(a.in[r]) + k, hints));
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::size_t step = i + u * stride;
        if (U > 1 && step >= n4) break;
        const std::size_t k = step + start < n4 ? step + start : step + start - n4;
#pragma unroll
        for (int w = 0; w < W; ++w) reinterpret_cast<float4*>(a.out[w])[k] = s[u];
      }
    }
    for (std::size_t i = 4 * n4 + first; i < n; i += stride) {
      float s = __ldg(a.in[0] + i);
#pragma unroll
      for (int r = 1; r < R; ++r) s += __ldg(a.in[r] + i);
#pragma unroll
      for (int w = 0; w < W; ++w) a.out[w][i] = s;
    }
  }
}

using StreamKernel = void (*)(StreamArrays, std::size_t, int, std::size_t, int);

template <int U, int R, int... W>
std::array<StreamKernel, sizeof...(W)> writes_row(std::integer_sequence<int, W...>) {
  return {&stream<R, W + 1, U>...};
}
template <int U, int... R>
std::array<std::array<StreamKernel, kMaxStreamWrites>, sizeof...(R)> stream_table(std::integer_sequence<int, R...>) {
  return {writes_row<U, R + 1>(std::make_integer_sequence<int, kMaxStreamWrites>())...};
}

// kernel(R, W, U) streams R arrays in and W out, U steps per thread at a time (the runtime mix
// picks one of the 16 x 12 kernels of each U).
StreamKernel kernel(int reads, int writes, int unroll) {
  static const auto one = stream_table<1>(std::make_integer_sequence<int, kMaxStreamReads>());
  static const auto two = stream_table<2>(std::make_integer_sequence<int, kMaxStreamReads>());
  return (unroll == 2 ? two : one)[static_cast<std::size_t>(reads - 1)][static_cast<std::size_t>(writes - 1)];
}

// A launch inside the cache sweeps its arrays for about this long (in-kernel passes), and each timed
// sample is a few launches back to back: long enough for the event resolution and as long as a chapter's
// timed run, so that the clocks have settled as they have for the variants.
constexpr double kLaunchSeconds = 1e-3;
constexpr double kSampleSeconds = 10e-3;
constexpr int kSamples = 5;
// Before the first shape: the GPU at work this long, so that its clocks are up.
constexpr double kWarmSeconds = 50e-3;

}  // namespace

namespace {

// The best launch shape for arrays of `n` floats each. With `in_cache` every shape first sweeps once
// to learn how many in-kernel passes fill about kLaunchSeconds; otherwise each launch sweeps once, as
// a kernel that streams from memory does.
void measure_at(const StreamMix& mix, std::size_t n, int sm_count, bool in_cache, bool& warm, StreamMeasurement& best) {
  const int count = mix.reads + mix.writes;
  std::vector<DeviceBuffer<float>> storage;
  StreamArrays arrays{};
  for (int a = 0; a < count; ++a) {
    storage.emplace_back(n);
    storage.back().fill_bytes(0);
    if (a < mix.reads)
      arrays.in[a] = storage.back().get();
    else
      arrays.out[a - mix.reads] = storage.back().get();
  }
  // The launch shapes: grids that fill every SM two to eight times over with 256 or 512 threads per
  // block, each with one and two steps per thread in flight, and one thread per float4. For the 1:1
  // mix also cudaMemcpyAsync (threads 0): the runtime's copy is a way to stream 1:1 too, and a limit
  // below it would let a chapter's memcpy row pass 100%.
  struct Shape {
    int threads, blocks, unroll, hints;
  };
  std::vector<Shape> shapes;
  if (mix.reads == 1 && mix.writes == 1 && !in_cache) shapes.push_back({0, 0, 1, 0});
  for (int hints : {0, 1})
    for (int unroll : {1, 2})
      for (int threads : {256, 512})
        for (int per_sm : {2, 4, 8})
          if (threads * per_sm <= 2048) shapes.push_back({threads, per_sm * std::max(sm_count, 1), unroll, hints});
  // One thread per float4 in blocks of 64, 128 and 256: arrays of a few thousand float4s fill only a
  // few SMs, and smaller blocks spread them over more (chapter 11's 6048-node cavity, 252 blocks of
  // 64 threads, beat a limit whose best shape was 6 blocks of 256 by 18%).
  const std::size_t n4 = std::max<std::size_t>(n / 4, 1);
  for (int hints : {0, 1})
    for (int threads : {64, 128, 256})
      shapes.push_back({threads, static_cast<int>(std::min<std::size_t>((n4 + threads - 1) / threads, 0x7fffffff)), 1, hints});
  // A rotation per pass of about 0.618 of the arrays (the golden ratio: no early repeat), a multiple
  // of 32 float4s so that warps stay aligned.
  const std::size_t rotation = n4 > 64 ? static_cast<std::size_t>(0.6180339887 * static_cast<double>(n4)) / 32 * 32 : 0;
  best.shapes += static_cast<int>(shapes.size());

  const double bytes = static_cast<double>(count) * static_cast<double>(n) * 4.0;
  EventTimer timer;
  for (const Shape& shape : shapes) {
    const StreamKernel stream_kernel = kernel(mix.reads, mix.writes, shape.unroll);
    int passes = 1;
    const auto launch = [&] {
      if (shape.threads == 0) {
        GPGPU_CUDA_CHECK(cudaMemcpyAsync(arrays.out[0], arrays.in[0], n * sizeof(float), cudaMemcpyDeviceToDevice));
        return;
      }
      stream_kernel<<<shape.blocks, shape.threads>>>(arrays, n, passes, rotation, shape.hints);
      GPGPU_CUDA_CHECK_LAUNCH("stream (limit)");
    };
    const auto seconds_of = [&](int launches) {
      timer.start();
      for (int l = 0; l < launches; ++l) launch();
      timer.stop();
      return timer.seconds();
    };
    launch();  // untimed: caches warm
    if (!warm) {  // once per measurement: the clocks up
      const int launches = static_cast<int>(std::clamp(kWarmSeconds / std::max(seconds_of(1), 1e-7), 1.0, 100000.0));
      (void)seconds_of(launches);
      warm = true;
    }
    if (in_cache) passes = static_cast<int>(std::clamp(kLaunchSeconds / std::max(seconds_of(1), 1e-7), 1.0, 10000.0));
    const int launches = static_cast<int>(std::clamp(kSampleSeconds / std::max(seconds_of(1), 1e-7), 1.0, 10000.0));
    for (int sample = 0; sample < kSamples; ++sample) {
      const double gbs = bytes * passes * launches / seconds_of(launches) / 1e9;
      if (gbs > best.gbs) {
        best.gbs = gbs;
        best.threads = shape.threads;
        best.blocks = shape.blocks;
        best.unroll = shape.unroll;
        best.hints = shape.hints != 0;
        best.passes = passes;
        best.launches = launches;
        best.elements_measured = n;
      }
    }
  }
}

}  // namespace

StreamMeasurement measure_stream(const StreamMix& mix, int sm_count, double cache_bytes) {
  if (mix.reads < 1 || mix.reads > kMaxStreamReads || mix.writes < 1 || mix.writes > kMaxStreamWrites)
    throw std::invalid_argument("measure_stream: mix " + mix.str() + " outside 1..16 reads, 1..12 writes");
  const std::size_t n = std::max<std::size_t>(mix.elements * static_cast<std::size_t>(mix.element_bytes) / 4, 1);
  require_device_memory(mix.bytes(), "the stream limit " + mix.str());
  StreamMeasurement best;
  bool warm = false;
  measure_at(mix, n, sm_count, false, warm, best);
  // A working set that fits the cache is judged by the cache's bandwidth: measured once more with
  // arrays of a total at most half the cache, which surely stay there (the variant's own size may
  // sit at the cache's edge, where part of every sweep goes to memory).
  const double count = mix.reads + mix.writes;
  const auto resident = static_cast<std::size_t>(0.5 * cache_bytes / (count * 4.0)) / 64 * 64;
  if (mix.bytes() <= cache_bytes && resident >= 64 * 1024 && resident < n) measure_at(mix, resident, sm_count, true, warm, best);
  return best;
}

}  // namespace gpgpu::cuda
