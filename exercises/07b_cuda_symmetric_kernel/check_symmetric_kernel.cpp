// The check of exercise 07b: the symmetric-storage kernel, given only 5 of the 9 diagonals, matches
// the CPU double-precision reference (which uses all 9) at awkward sizes, including a width whose
// rows get no pitch padding, for odd and even iteration counts; the output's unknowns are NaN before
// the run.
#include <utility>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/stencil.hpp"
#include "symmetric_kernel.hpp"

namespace {

using gpgpu::cuda::PitchedBuffer;
using gpgpu::jacobi::Dir;
constexpr std::size_t kGhostRows = gpgpu::jacobi::kPitchedGhostRows;  // chapter 05's layout

std::vector<float> solve(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int block) {
  const auto nx = static_cast<std::size_t>(sys.grid.nx), ny = static_cast<std::size_t>(sys.grid.ny);
  const auto field = [&](std::span<const float> values) {
    return gpgpu::cuda::pitched_with_ghost_rows(values, nx, ny, kGhostRows);
  };
  const auto diag = [&](Dir d) { return field(sys.A.diag[static_cast<std::size_t>(gpgpu::jacobi::idx(d))]); };
  PitchedBuffer<float> c = diag(Dir::C), e = diag(Dir::E), nw = diag(Dir::NW), n = diag(Dir::N), ne = diag(Dir::NE);
  PitchedBuffer<float> f = field(sys.rhs), x = field(x0), x_new = field(x0);
  const std::size_t p = x.pitch();
  x_new.fill_block_bytes(0xFF, nx, ny, kGhostRows);  // NaN: an unknown the kernel skips fails
  const auto at00 = [](PitchedBuffer<float>& b) { return b.row(kGhostRows); };
  for (int it = 0; it < iters; ++it) {
    ex07b::launch_jacobi_symmetric({at00(c), at00(e), at00(nw), at00(n), at00(ne), at00(f), at00(x), at00(x_new),
                                    sys.grid.nx, sys.grid.ny, static_cast<int>(p),
                                    static_cast<float>(gpgpu::jacobi::kDefaultOmega)},
                                   block);
    std::swap(x, x_new);
  }
  return x.download_rows(nx, ny, kGhostRows);
}

using gpgpu::jacobi::checks::JacobiCase;

class SymmetricKernel : public ::testing::TestWithParam<JacobiCase> {};  // device 0: opened by the test main

TEST_P(SymmetricKernel, MatchesTheNineDiagonalReference) {
  const JacobiCase c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 10);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solve(sys, x0, c.iters, c.block), sys, x0, c.iters));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SymmetricKernel,
                         ::testing::Values(JacobiCase{{1, 1}, 3, 64}, JacobiCase{{2, 7}, 2, 32},
                                           JacobiCase{{17, 1023}, 7, 64},
                                           JacobiCase{{512, 40}, 4, 128}, JacobiCase{{513, 300}, 9, 96}),
                         gpgpu::jacobi::checks::case_name);

}  // namespace
