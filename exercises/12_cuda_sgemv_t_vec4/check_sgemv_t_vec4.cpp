// The GPU check of exercise 12 (label cuda; skipped without a GPU): the launch function on device
// buffers, y poisoned with NaN before it (the launch must zero it), within the bound.
#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "sgemv_t_vec4.hpp"
#include "sgemv_t_vec4_checks.hpp"

namespace {

std::vector<float> on_gpu(const gpgpu::blas::Case& c) {
  gpgpu::cuda::DeviceBuffer<float> a(c.a.size()), x(c.x.size()), y(static_cast<std::size_t>(c.n));
  a.upload(c.a);
  x.upload(c.x);
  y.fill_bytes(0xFF);
  ex12::launch_sgemv_t_vec4(a.get(), x.get(), y.get(), static_cast<int>(c.m), static_cast<int>(c.n));
  return y.download(0, y.size());
}

TEST(SgemvTVec4, WithinTheBoundAtAwkwardShapes) {
  for (const auto& [m, n] : ex12::checks::shapes()) EXPECT_TRUE(ex12::checks::within_bound(on_gpu, m, n));
  EXPECT_TRUE(ex12::checks::within_bound(on_gpu, 4099, 8196));  // past the L2, the float4 path
}

}  // namespace
