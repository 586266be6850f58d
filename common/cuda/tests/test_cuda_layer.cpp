// The CUDA layer itself on a GPU: checked calls carry CUDA's own error text, the device description
// is plausible, sizes that do not fit are usage errors, RAII buffers round-trip, poisoning gives
// NaN, texture objects enforce their limits, and the copy bandwidth is measured.
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/copy_bandwidth.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/errors.hpp"

namespace {

using namespace gpgpu::cuda;

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

TEST_F(CudaLayer, CopyBandwidthIsMeasured) {
  const CopyBandwidth bw = measure_copy_bandwidth(std::size_t{64} << 20, 3);
  EXPECT_EQ(bw.bytes_per_array, std::size_t{64} << 20);
  EXPECT_GT(bw.memcpy_gbs, 1.0);
  EXPECT_GT(bw.kernel_gbs, 1.0);
  EXPECT_EQ(bw.best_gbs(), std::max(bw.memcpy_gbs, bw.kernel_gbs));
  EXPECT_NE(bw.limit_name().find("64.0 MiB"), std::string::npos) << bw.limit_name();
}

TEST_F(CudaLayer, EventTimerMeasuresGpuTime) {
  DeviceBuffer<float> a(1 << 24), b(1 << 24);
  a.fill_bytes(0);
  EventTimer timer;
  timer.start();
  GPGPU_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice));
  timer.stop();
  const double s = timer.seconds();
  EXPECT_GT(s, 0.0);
  EXPECT_LT(s, 1.0);
}

}  // namespace
