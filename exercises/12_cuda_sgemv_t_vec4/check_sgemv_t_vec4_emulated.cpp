// The CPU check of exercise 12 (label cpu, no GPU needed): the kernel, unchanged, on the CPU
// emulation of the CUDA thread model (kernels/blas/cuda/tests/level12_emulation.hpp: fibers meeting
// at __syncthreads(), atomicAdd), launched as launch_sgemv_t_vec4 launches it (y zeroed first).
#include "blas/cuda/tests/level12_emulation.hpp"

#define GPGPU_CUDA_EMULATION
#include <sgemv_t_vec4.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "sgemv_t_vec4_checks.hpp"

namespace {

std::vector<float> emulated(const gpgpu::blas::Case& c) {
  const int m = static_cast<int>(c.m), n = static_cast<int>(c.n);
  std::vector<float> y(static_cast<std::size_t>(n), 0.0f);
  const dim3 grid((n + ex12::kBlockColumns - 1) / ex12::kBlockColumns, (m + ex12::kBlockRows - 1) / ex12::kBlockRows);
  emu::launch_with_barriers(grid, dim3(ex12::kThreadsX, ex12::kLanes), [&] { ex12::sgemv_t_vec4(c.a.data(), c.x.data(), y.data(), m, n); });
  return y;
}

TEST(SgemvTVec4Emulated, WithinTheBoundAtAwkwardShapes) {
  for (const auto& [m, n] : ex12::checks::shapes()) EXPECT_TRUE(ex12::checks::within_bound(emulated, m, n));
}

}  // namespace
