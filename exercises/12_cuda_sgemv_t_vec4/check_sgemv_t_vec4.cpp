// The GPU check of exercise 12 (label cuda; skipped without a GPU): the launch function on device
// buffers, A pitched with NaN after each row (a kernel that adds a value from past column n - 1
// makes y NaN), y poisoned with NaN before it (the launch must zero it), within the bound.
#include <span>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "sgemv_t_vec4.hpp"
#include "sgemv_t_vec4_checks.hpp"

namespace {

std::vector<float> on_gpu(const gpgpu::blas::Case& c, const ex12::checks::PitchedMatrix& a_host) {
  gpgpu::cuda::DeviceBuffer<float> a(a_host.floats()), x(c.x.size()), y(static_cast<std::size_t>(c.n));
  a.upload(std::span<const float>(a_host.data(), a_host.floats()));  // cudaMalloc: 256-byte aligned
  x.upload(c.x);
  y.fill_bytes(0xFF);
  ex12::launch_sgemv_t_vec4(a.get(), a_host.lda, x.get(), y.get(), static_cast<int>(c.m), static_cast<int>(c.n));
  return y.download(0, y.size());
}

TEST(SgemvTVec4, WithinTheBoundAtAwkwardShapes) {
  for (const auto& [m, n] : ex12::checks::shapes()) EXPECT_TRUE(ex12::checks::within_bound(on_gpu, m, n));
  EXPECT_TRUE(ex12::checks::within_bound(on_gpu, 4099, 8198));  // past the L2, n % 4 == 2
}

}  // namespace
