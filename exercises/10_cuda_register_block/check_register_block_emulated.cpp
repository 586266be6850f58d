// The CPU check of exercise 10 (label cpu, no GPU needed): the kernel, unchanged, on the CPU
// emulation of the CUDA thread model (kernels/matrix/cuda/tests/matrix_emulation.hpp), launched as
// launch_gemm_register_block launches it, within the FP32 bound at sizes no tile divides.
#include "matrix/cuda/tests/matrix_emulation.hpp"

#define GPGPU_CUDA_EMULATION
#include <gemm_register_block.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "register_block_checks.hpp"

namespace {

gpgpu::blas::HostMatrix multiply_emulated(const gpgpu::blas::Operands& ops) {
  const gpgpu::blas::Dims d = ops.dims();
  gpgpu::blas::HostMatrix c = gpgpu::matrix::poisoned(d.c(), gpgpu::blas::ElementType::f32);
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const dim3 grid((n + ex10::kTile - 1) / ex10::kTile, (m + ex10::kTile - 1) / ex10::kTile);
  const float* a = ops.a.as<float>().data();
  const float* b = ops.b.as<float>().data();
  float* out = c.as<float>().data();
  emu::launch_with_barriers(grid, dim3(ex10::kThreads), [&] { ex10::gemm_register_block(a, b, out, m, n, k); });
  return c;
}

TEST(RegisterBlockEmulated, WithinTheFp32BoundAtAwkwardSizes) {
  for (const gpgpu::blas::Dims& d : ex10::checks::sizes()) EXPECT_TRUE(ex10::checks::within_bound(multiply_emulated, d));
}

}  // namespace
