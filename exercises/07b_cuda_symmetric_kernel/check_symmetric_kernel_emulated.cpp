// The CPU check of exercise 07b (label cpu, no GPU needed): your kernel, unchanged, on the CPU
// emulation of the CUDA thread model (cuda_emulation.hpp), given only the five stored diagonals on
// chapter 05's pitched layout, against the nine-diagonal double-precision reference: at awkward
// sizes, with and without row padding (pitch == nx reads the previous row's last coefficient at the
// first column), odd and even iteration counts, and at an ω other than the default (a kernel that
// hard-codes 0.8 fails). It says nothing about speed; the GPU check's Measure test does. The include
// path holds the student's folder, the exercise's interface and copies of the headers the kernel and
// the emulation need (CMakeLists.txt), not the chapter's kernels.
#include "jacobi/cuda/tests/cuda_emulation.hpp"

#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#define GPGPU_CUDA_EMULATION
#include <symmetric_kernel.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "gpgpu/harness/watchdog.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/pitched_host.hpp"

namespace {

// A kernel that never returns (a loop without its step, say) fails the check after 40 s, naming the
// test, within the CTest timeout of a minute.
[[maybe_unused]] const auto* const kWatchdog = gpgpu::harness::add_watchdog(std::chrono::seconds(40));

using gpgpu::jacobi::Dir;
using gpgpu::jacobi::Grid;
using gpgpu::jacobi::testing::HostPitched;
using gpgpu::jacobi::testing::host_pitched;

// `iters` iterations on the emulation in blocks of `block` threads, one block row per grid row;
// pitch = nx rounded up to 4 floats, plus pitch_extra.
std::vector<float> run_emulated(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int block,
                                int pitch_extra, double omega) {
  const Grid g = sys.grid;
  const int p = (g.nx + 3) / 4 * 4 + pitch_extra;
  std::vector<HostPitched> upper;
  for (Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) upper.push_back(host_pitched(sys.A.diag[gpgpu::jacobi::idx(d)], g, p));
  const HostPitched f = host_pitched(sys.rhs, g, p);
  HostPitched x = host_pitched(x0, g, p), y = host_pitched({}, g, p, std::numeric_limits<float>::quiet_NaN());
  const dim3 grid(static_cast<unsigned>((g.nx + block - 1) / block), static_cast<unsigned>(g.ny));
  for (int it = 0; it < iters; ++it) {
    const ex07b::SymmetricArgs a{upper[0].origin(), upper[1].origin(), upper[2].origin(), upper[3].origin(),
                                 upper[4].origin(), f.origin(), x.origin(), y.origin(), g.nx, g.ny, p,
                                 static_cast<float>(omega)};
    emu::launch(grid, dim3(static_cast<unsigned>(block)), /*barriers=*/false, [&] { ex07b::jacobi_symmetric(a); });
    std::swap(x, y);
  }
  return gpgpu::jacobi::testing::host_unknowns(x, g);
}

struct Case {
  Grid grid;
  int iters;
  int block;
  int pitch_extra;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.grid.str() << ", " << c.iters << " iterations, block " << c.block << ", pitch +" << c.pitch_extra;
}

class SymmetricKernelEmulated : public ::testing::TestWithParam<Case> {};

TEST_P(SymmetricKernelEmulated, MatchesTheNineDiagonalReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 10);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(run_emulated(sys, x0, c.iters, c.block, c.pitch_extra,
                                                                    gpgpu::jacobi::kDefaultOmega),
                                                       sys, x0, c.iters));
}

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST_P(SymmetricKernelEmulated, UsesTheOmegaItIsGiven) {
  const Case c = GetParam();
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [&](const auto& sys, std::span<const float> x0, int iters, double omega) {
        return run_emulated(sys, x0, iters, c.block, c.pitch_extra, omega);
      },
      c.grid, c.iters));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SymmetricKernelEmulated,
                         ::testing::Values(Case{{1, 1}, 3, 64, 4}, Case{{2, 7}, 2, 32, 0}, Case{{17, 103}, 7, 64, 4},
                                           Case{{40, 20}, 4, 16, 0}, Case{{65, 33}, 9, 96, 8}),
                         [](const auto& info) {
                           const Case& c = info.param;
                           return c.grid.str() + "_it" + std::to_string(c.iters) + "_b" + std::to_string(c.block) +
                                  "_pitch" + std::to_string(c.pitch_extra);
                         });

}  // namespace
