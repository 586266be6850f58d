// The check of exercise 06: the 2D shared-memory kernel matches the CPU double-precision reference
// at awkward sizes and block shapes (a single thread, thin, tall, 1024 threads), for odd and even
// iteration counts; the output's unknowns are NaN before the run.
#include <array>
#include <utility>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "shared_halo.hpp"

namespace {

using gpgpu::cuda::PitchedBuffer;
constexpr std::size_t kGhostRows = gpgpu::jacobi::kPitchedGhostRows;  // chapter 05's layout

std::vector<float> solve(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int bx, int by) {
  const auto nx = static_cast<std::size_t>(sys.grid.nx), ny = static_cast<std::size_t>(sys.grid.ny);
  const auto field = [&](std::span<const float> values) {
    return gpgpu::cuda::pitched_with_ghost_rows(values, nx, ny, kGhostRows);
  };
  std::vector<PitchedBuffer<float>> diag;
  for (const auto& d : sys.A.diag) diag.push_back(field(d));
  PitchedBuffer<float> f = field(sys.rhs), x = field(x0), x_new = field(x0);
  const std::size_t p = x.pitch();
  x_new.fill_block_bytes(0xFF, nx, ny, kGhostRows);  // NaN: an unknown the kernel skips fails
  const auto at00 = [](PitchedBuffer<float>& b) { return b.row(kGhostRows); };
  for (int it = 0; it < iters; ++it) {
    ex06::SharedArgs a{{}, at00(f), at00(x), at00(x_new), sys.grid.nx, sys.grid.ny, static_cast<int>(p),
                       static_cast<float>(gpgpu::jacobi::kDefaultOmega)};
    for (std::size_t d = 0; d < 9; ++d) a.diag[d] = at00(diag[d]);
    ex06::launch_jacobi_shared_2d(a, bx, by);
    std::swap(x, x_new);
  }
  return x.download_rows(nx, ny, kGhostRows);
}

struct Case {
  gpgpu::jacobi::Grid grid;
  int iters;
  int bx, by;
};

class SharedHalo : public ::testing::TestWithParam<Case> {};  // device 0: opened by the test main

TEST_P(SharedHalo, MatchesTheReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 6);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solve(sys, x0, c.iters, c.bx, c.by), sys, x0, c.iters));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizesAndBlocks, SharedHalo,
                         ::testing::Values(Case{{1, 1}, 3, 1, 1}, Case{{2, 7}, 2, 32, 8}, Case{{17, 1023}, 7, 16, 16},
                                           Case{{513, 64}, 6, 64, 1}, Case{{100, 90}, 5, 7, 3},
                                           Case{{1030, 40}, 4, 32, 32}),
                         [](const auto& info) {
                           const Case& c = info.param;
                           std::string name = c.grid.str();
                           name += "_it" + std::to_string(c.iters) + "_b" + std::to_string(c.bx) + "x" + std::to_string(c.by);
                           return name;
                         });

}  // namespace
