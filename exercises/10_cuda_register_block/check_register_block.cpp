// The GPU check of exercise 10 (label cuda): launch_gemm_register_block within the FP32 bound at
// sizes no tile divides and at 1000 x 1001 x 999, C poisoned (NaN) first, A and B between NaN guards.
#include <vector>

#include "gemm_register_block.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "register_block_checks.hpp"

namespace {

gpgpu::blas::HostMatrix multiply_on_gpu(const gpgpu::blas::Operands& ops) {
  const gpgpu::blas::Dims d = ops.dims();
  // A and B between NaN guards: a load past either end (a k edge guarded only by the row) shows.
  const std::vector<float> a_host = ex10::checks::guarded(ops.a.as<float>());
  const std::vector<float> b_host = ex10::checks::guarded(ops.b.as<float>());
  gpgpu::cuda::DeviceBuffer<float> a(a_host.size()), b(b_host.size()), c(static_cast<std::size_t>(d.m * d.n));
  a.upload(a_host);
  b.upload(b_host);
  c.fill_bytes(0xFF);
  ex10::launch_gemm_register_block(a.get() + ex10::checks::kGuard, b.get() + ex10::checks::kGuard, c.get(),
                                   static_cast<int>(d.m), static_cast<int>(d.n), static_cast<int>(d.k));
  return gpgpu::blas::HostMatrix(d.c(), c.download(0, c.size()));
}

TEST(RegisterBlock, WithinTheFp32BoundAtAwkwardSizes) {
  ASSERT_TRUE(ex10::checks::shape_is_valid(ex10::tile_shape()));
  std::vector<gpgpu::blas::Dims> sizes = ex10::checks::sizes();
  sizes.push_back({1000, 1001, 999});
  for (const gpgpu::blas::Dims& d : sizes) EXPECT_TRUE(ex10::checks::within_bound(multiply_on_gpu, d));
}

}  // namespace
