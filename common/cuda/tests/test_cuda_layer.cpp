// The CUDA layer itself on a GPU: checked calls carry CUDA's own error text, the device description
// is plausible, sizes that do not fit are usage errors, RAII buffers round-trip, poisoning gives
// NaN, texture objects enforce their limits, and the backend's session measures a stream limit for
// every read:write mix, once per mix, in the working set it names.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cli.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/cuda/stream_limit.hpp"
#include "gpgpu/errors.hpp"

namespace {

using namespace gpgpu::cuda;

// `reads` arrays in, `writes` out, `n` floats each.
gpgpu::StreamMix floats(int reads, int writes, std::size_t n) {
  gpgpu::StreamMix mix;
  mix.reads = reads;
  mix.writes = writes;
  mix.elements = n;
  return mix;
}

class CudaLayer : public ::testing::Test {};  // device 0: opened by the test main

TEST_F(CudaLayer, CheckedCallsThrowApiErrorWithCudasText) {
  void* p = nullptr;
  try {
    GPGPU_CUDA_CHECK(cudaMalloc(&p, std::size_t{1} << 62));
    FAIL() << "a 4 EiB allocation succeeded";
  } catch (const gpgpu::ApiError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaMalloc(&p, std::size_t{1} << 62)"), std::string::npos) << what;
    EXPECT_NE(what.find("cudaErrorMemoryAllocation"), std::string::npos) << what;
    EXPECT_NE(what.find("test_cuda_layer.cpp"), std::string::npos) << what;
  }
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());  // the error was not sticky
}

TEST_F(CudaLayer, DeviceDescriptionIsPlausible) {
  const DeviceInfo d = open_device(0);
  EXPECT_FALSE(d.name.empty());
  EXPECT_GE(d.cc_major, 5);
  EXPECT_GT(d.sm_count, 0);
  EXPECT_GT(d.l2_bytes, 0u);
  EXPECT_GT(d.global_memory_bytes, d.free_memory_bytes / 2);
  EXPECT_GT(d.sm_clock_khz, 0);
  EXPECT_GT(d.memory_clock_khz, 0);
  EXPECT_GT(d.nominal_bandwidth_gbs(), 10.0);
  EXPECT_GE(d.texture_alignment, 256u);
  EXPECT_GE(d.texture1d_linear_max_floats, std::size_t{1} << 20);
  EXPECT_THROW((void)open_device(device_count()), gpgpu::UsageError);
}

TEST_F(CudaLayer, SizesThatDoNotFitAreUsageErrors) {
  EXPECT_THROW(require_device_memory(1e18, "a test"), gpgpu::UsageError);
  EXPECT_NO_THROW(require_device_memory(1e6, "a test"));
}

TEST_F(CudaLayer, BuffersRoundTripAndPoison) {
  DeviceBuffer<float> b(1000);
  std::vector<float> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 3.0f;
  b.upload(v);
  EXPECT_EQ(b.download(0, 1000), v);
  EXPECT_EQ(b.download(10, 5), std::vector<float>(v.begin() + 10, v.begin() + 15));
  b.fill_bytes(0xFF);
  for (float x : b.download(0, 1000)) ASSERT_TRUE(std::isnan(x));
  DeviceBuffer<float> moved = std::move(b);
  EXPECT_EQ(moved.size(), 1000u);
  EXPECT_EQ(b.get(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
}

TEST_F(CudaLayer, PinnedBufferRoundTripsAndMoves) {
  PinnedBuffer<float> host(1000), back(1000);
  for (std::size_t i = 0; i < host.size(); ++i) host.data()[i] = static_cast<float>(i) - 7.5f;
  DeviceBuffer<float> d(1000);
  GPGPU_CUDA_CHECK(cudaMemcpy(d.get(), host.data(), d.bytes(), cudaMemcpyHostToDevice));
  GPGPU_CUDA_CHECK(cudaMemcpy(back.data(), d.get(), d.bytes(), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < back.size(); ++i) ASSERT_EQ(back.data()[i], host.data()[i]);
  PinnedBuffer<float> moved = std::move(host);
  EXPECT_EQ(moved.size(), 1000u);
  EXPECT_EQ(host.data(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
}

TEST_F(CudaLayer, PitchedBufferKeepsRowsApart) {
  const std::size_t nx = 37, ny = 5, rows = ny + 4;
  PitchedBuffer<float> b(nx, rows);
  EXPECT_GE(b.pitch(), nx);
  EXPECT_EQ(b.pitch_bytes() % 16, 0u);
  b.fill_bytes(0);
  std::vector<float> v(nx * ny);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i + 1);
  b.upload_rows(v, nx, ny, 2);
  EXPECT_EQ(b.download_rows(nx, ny, 2), v);
  EXPECT_EQ(b.download_rows(nx, 1, 0), std::vector<float>(nx, 0.0f));  // ghost row untouched
}

TEST_F(CudaLayer, TextureObjectsCheckTheirLimits) {
  const DeviceInfo d = open_device(0);
  DeviceBuffer<float> b(4096 + d.texture_alignment / 4);
  float* aligned = b.get();
  while (reinterpret_cast<std::uintptr_t>(aligned) % d.texture_alignment != 0) ++aligned;
  EXPECT_THROW(TextureObject(aligned + 1, 100, d.texture_alignment, d.texture1d_linear_max_floats), gpgpu::UsageError);
  EXPECT_THROW(TextureObject(aligned, d.texture1d_linear_max_floats + 1, d.texture_alignment, d.texture1d_linear_max_floats),
               gpgpu::UsageError);
  const TextureObject t(aligned, 4096, d.texture_alignment, d.texture1d_linear_max_floats);
  EXPECT_NE(t.get(), 0u);
}

TEST_F(CudaLayer, SessionDescribesTheDevice) {
  const auto session = open_session(0);
  const DeviceInfo& d = device_info(*session);
  EXPECT_EQ(session->backend(), gpgpu::Backend::cuda);
  EXPECT_EQ(session->device(), d.name);
  EXPECT_EQ(session->cache_name(), "L2");
  EXPECT_DOUBLE_EQ(session->cache_bytes(), static_cast<double>(d.l2_bytes));
  EXPECT_EQ(session->json().at("name"), d.name);
  const auto cpu = gpgpu::cpu_opener()->open();
  EXPECT_THROW((void)device_info(*cpu), std::invalid_argument);
}

TEST_F(CudaLayer, OpenerRefusesADeviceTheMachineLacks) {
  gpgpu::Cli cli("test_cuda_layer", "the --device option");
  const auto d = opener();
  d->add_options(cli);
  const std::string count = std::to_string(device_count());
  const char* argv[] = {"test_cuda_layer", "--device", count.c_str()};
  cli.parse(3, argv);
  EXPECT_THROW((void)d->open(), gpgpu::UsageError);
}

TEST_F(CudaLayer, StreamLimitMatchesTheMixAndIsMeasuredOnce) {
  const auto session = open_session(0);
  const DeviceInfo& d = device_info(*session);
  const gpgpu::StreamMix in_l2 = floats(11, 1, std::size_t{1} << 16);  // 3 MiB in all: inside any L2
  const gpgpu::Limit a = session->stream_limit(in_l2);
  EXPECT_GT(a.gbs, 0.0);  // measured: no lower bound but zero (see the copy below)
  EXPECT_DOUBLE_EQ(session->stream_limit(in_l2).gbs, a.gbs);  // the rows of one run share one measurement
  EXPECT_NE(a.name.find("11:1"), std::string::npos) << a.name;
  EXPECT_EQ(a.mix, in_l2.str());
  EXPECT_EQ(a.working_set.rfind("cache-resident", 0), 0u) << a.working_set;
  EXPECT_DOUBLE_EQ(a.theoretical_gbs, d.nominal_bandwidth_gbs());
  // Two arrays of four times the L2 each: DRAM. Bytes read + written, counted once each, cannot
  // exceed the bus: a limit above the theoretical bandwidth would count bytes twice. Only this
  // upper bound is asserted: the test suite runs many GPU tests at once (ctest -j), and a share of
  // the GPU's time taken by the others lowers the measured rate without limit, so a lower bound on a
  // measured rate is a timed assertion, which fails under load.
  const gpgpu::Limit copy = session->stream_limit(floats(1, 1, d.l2_bytes));
  EXPECT_EQ(copy.working_set.rfind("memory", 0), 0u) << copy.working_set;
  EXPECT_GT(copy.gbs, 0.0);
  EXPECT_LT(copy.gbs, 1.05 * d.nominal_bandwidth_gbs());
}

TEST_F(CudaLayer, StreamKernelsCoverEveryReadAndWriteCount) {
  // Every read count with one write, every write count with one read, and the widest mix, at lengths
  // that leave a scalar tail (the kernel's float4 part is empty for the shortest).
  std::vector<gpgpu::StreamMix> mixes{floats(kMaxStreamReads, kMaxStreamWrites, 1003), floats(1, 1, 1), floats(2, 3, 3)};
  for (int r = 1; r <= kMaxStreamReads; ++r) mixes.push_back(floats(r, 1, 1001));
  for (int w = 1; w <= kMaxStreamWrites; ++w) mixes.push_back(floats(1, w, 4099));
  // Every mix tries the same kernel shapes; the 1:1 mix also cudaMemcpyAsync.
  const int kernel_shapes = measure_stream(floats(2, 1, 8), 4, 50e6).shapes;
  for (const gpgpu::StreamMix& m : mixes) {
    const StreamMeasurement s = measure_stream(m, 4, 50e6);
    EXPECT_GT(s.gbs, 0.0) << m.str();
    const bool copy = m.reads == 1 && m.writes == 1;
    EXPECT_EQ(s.shapes, kernel_shapes + (copy ? 1 : 0)) << m.str();  // at their own length only
    EXPECT_GE(s.launches, 1) << m.str();
    EXPECT_GE(s.passes, 1) << m.str();
  }
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_F(CudaLayer, ACacheSizedWorkingSetIsAlsoMeasuredInsideTheCache) {
  // 12 x 4 MiB (50.3 MB) at the edge of a 50 MiB (52.4 MB) cache, as 1024² Jacobi on an H100:
  // measured at its own size and at arrays of half the cache in all, the better one kept.
  const double cache = 50.0 * (1 << 20);
  const StreamMeasurement s = measure_stream(floats(11, 1, std::size_t{1} << 20), 132, cache);
  EXPECT_EQ(s.shapes, 2 * measure_stream(floats(11, 1, 1024), 132, cache).shapes);
  EXPECT_LE(s.elements_measured, std::size_t{1} << 20);
  EXPECT_GT(s.gbs, 0.0);
}

TEST_F(CudaLayer, StreamLimitRefusesWhatItCannotMeasure) {
  EXPECT_THROW((void)measure_stream(floats(0, 1, 100), 4, 50e6), std::invalid_argument);
  EXPECT_THROW((void)measure_stream(floats(kMaxStreamReads + 1, 1, 100), 4, 50e6), std::invalid_argument);
  EXPECT_THROW((void)measure_stream(floats(1, kMaxStreamWrites + 1, 100), 4, 50e6), std::invalid_argument);
  EXPECT_THROW((void)measure_stream(floats(11, 1, std::size_t{1} << 40), 4, 50e6), gpgpu::UsageError);  // 48 TiB
}

TEST_F(CudaLayer, EventTimerMeasuresGpuTime) {
  DeviceBuffer<float> a(1 << 24), b(1 << 24);
  a.fill_bytes(0);
  EventTimer timer;
  timer.start();
  GPGPU_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice));
  timer.stop();
  // Positive and finite: how long it took depends on what else the GPU runs (see above), so no
  // upper bound on the time is asserted.
  const double s = timer.seconds();
  EXPECT_GT(s, 0.0);
  EXPECT_TRUE(std::isfinite(s));
}

}  // namespace
