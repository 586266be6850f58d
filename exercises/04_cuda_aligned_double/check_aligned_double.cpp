// The check of exercise 04: the offset is the smallest line-aligned one for 4- and 8-byte words
// and 64- and 128-byte lines, and the double-precision kernel matches the double reference to
// near double rounding: far tighter than any float kernel can (a wrong index cannot hide).
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <gtest/gtest.h>

#include "aligned_double.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/layouts.hpp"

namespace {

using gpgpu::cuda::DeviceBuffer;

TEST(AlignedOffset, IsTheSmallestAlignedOffsetPastTheGhosts) {
  for (int line : {64, 128})
    for (int word : {4, 8})
      for (std::int64_t nx : {1, 2, 7, 15, 16, 17, 31, 32, 33, 511, 512, 513, 1023, 4097}) {
        const std::int64_t per_line = line / word;
        const std::int64_t off = ex04::aligned_offset_elements(nx, line, word);
        EXPECT_EQ(off % per_line, 0) << "nx " << nx << ", line " << line << ", word " << word;
        EXPECT_GE(off, nx + 1) << "nx " << nx;
        EXPECT_LT(off - per_line, nx + 1) << "nx " << nx << ": a smaller aligned offset exists";
      }
}

std::vector<double> widen(std::span<const float> v) { return {v.begin(), v.end()}; }

std::vector<double> solve(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters) {
  const gpgpu::jacobi::Grid g = sys.grid;
  const auto n = static_cast<std::size_t>(g.nodes());
  const std::int64_t offset = ex04::aligned_offset_elements(g.nx, 128, 8);
  const gpgpu::jacobi::GhostPadded<double> host_x = gpgpu::jacobi::make_ghost_padded<double>(g, widen(x0), offset);
  const std::size_t padded = host_x.data.size();
  std::array<DeviceBuffer<double>, 9> diag;
  for (std::size_t d = 0; d < 9; ++d) {
    diag[d] = DeviceBuffer<double>(n);
    diag[d].upload(widen(sys.A.diag[d]));
  }
  DeviceBuffer<double> f(n), x(padded), x_new(padded);
  f.upload(widen(sys.rhs));
  x.upload(host_x.data);
  x_new.fill_bytes(0);
  GPGPU_CUDA_CHECK(cudaMemset(x_new.get() + offset, 0xFF, n * sizeof(double)));
  for (int it = 0; it < iters; ++it) {
    ex04::AlignedDoubleArgs a{{}, f.get(), x.get(), x_new.get(), g.nx, static_cast<int>(n), static_cast<int>(offset),
                              gpgpu::jacobi::kDefaultOmega};
    for (std::size_t d = 0; d < 9; ++d) a.diag[d] = diag[d].get();
    ex04::launch_jacobi_aligned_double(a, 64);
    std::swap(x, x_new);
  }
  return x.download(static_cast<std::size_t>(offset), n);
}

struct Case {
  gpgpu::jacobi::Grid grid;
  int iters;
};

class AlignedDouble : public ::testing::TestWithParam<Case> {};  // device 0: opened by the test main

TEST_P(AlignedDouble, MatchesTheDoubleReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 4);
  const std::vector<double> got = solve(sys, x0, c.iters);
  const std::vector<double> ref = gpgpu::jacobi::jacobi_reference(sys, x0, c.iters, gpgpu::jacobi::kDefaultOmega);
  // Same arithmetic in double, only the order of the additions (and fused multiply-adds) differs:
  // the error grows like the float tolerance with u = 2^-53 instead of 2^-24.
  const double tolerance = 4.0 * 0x1p-53 * (c.iters + 16) * 16.0;
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    ASSERT_TRUE(std::isfinite(got[k])) << "unknown " << k << " was not written";
    worst = std::max(worst, std::abs(got[k] - ref[k]));
    scale = std::max(scale, std::abs(ref[k]));
  }
  EXPECT_LE(worst / scale, tolerance) << c.grid.str() << ", " << c.iters << " iterations";
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, AlignedDouble,
                         ::testing::Values(Case{{1, 1}, 3}, Case{{2, 7}, 2}, Case{{17, 1023}, 7},
                                           Case{{513, 1024}, 10}),
                         [](const auto& info) {
                           std::string name = info.param.grid.str();
                           name += "_it" + std::to_string(info.param.iters);
                           return name;
                         });

}  // namespace
