// The check of exercise 07b: the symmetric-storage kernel, given only 5 of the 9 diagonals, matches
// the CPU double-precision reference (which uses all 9) at awkward sizes, including a width whose
// rows get no pitch padding, for odd and even iteration counts, and at an ω other than the default
// (a kernel that hard-codes 0.8 fails); the output's unknowns are NaN before the run. The same
// checks run on the CPU emulation in check_symmetric_kernel_emulated.cpp. Measure.* reports its rate beside chapter 05's nine-diagonal kernel, each against the
// limit for its own read:write mix, measured in the same run (no timed assertion).
#include <array>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/pitched_ping_pong.hpp"
#include "gpgpu/jacobi/stencil.hpp"
#include "symmetric_kernel.hpp"

namespace {

using gpgpu::cuda::PitchedBuffer;
using gpgpu::jacobi::Dir;
using gpgpu::jacobi::testing::PitchedPingPong;

// The host side: chapter 05's pitched layout with the five stored diagonals, the ping-pong loop
// timed by CUDA events.
class SymmetricSolver {
 public:
  SymmetricSolver(const gpgpu::jacobi::LinearSystem& sys, int block) : run_(sys.grid), grid_(sys.grid), block_(block) {
    for (Dir d : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE})
      upper_.push_back(run_.field(sys.A.diag[static_cast<std::size_t>(gpgpu::jacobi::idx(d))]));
    f_ = run_.field(sys.rhs);
  }

  void reset(std::span<const float> x0) { run_.reset(x0); }

  double iterate(int iters, double omega = gpgpu::jacobi::kDefaultOmega) {
    const auto o = [](PitchedBuffer<float>& b) { return PitchedPingPong::origin(b); };
    return run_.iterate(iters, [&](const float* x, float* x_new, int pitch) {
      ex07b::launch_jacobi_symmetric({o(upper_[0]), o(upper_[1]), o(upper_[2]), o(upper_[3]), o(upper_[4]), o(f_), x,
                                      x_new, grid_.nx, grid_.ny, pitch, static_cast<float>(omega)},
                                     block_);
    });
  }

  [[nodiscard]] std::vector<float> solution() const { return run_.solution(); }

 private:
  PitchedPingPong run_;
  gpgpu::jacobi::Grid grid_;
  int block_;
  std::vector<PitchedBuffer<float>> upper_;
  PitchedBuffer<float> f_;
};

std::vector<float> solve(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int block) {
  SymmetricSolver solver(sys, block);
  solver.reset(x0);
  solver.iterate(iters);
  return solver.solution();
}

using gpgpu::jacobi::checks::JacobiCase;

class SymmetricKernel : public ::testing::TestWithParam<JacobiCase> {};  // device 0: opened by the test main

TEST_P(SymmetricKernel, MatchesTheNineDiagonalReference) {
  const JacobiCase c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 10);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solve(sys, x0, c.iters, c.block), sys, x0, c.iters));
}

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST(SymmetricKernelOmega, UsesTheOmegaItIsGiven) {
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [](const auto& sys, std::span<const float> x0, int iters, double omega) {
        SymmetricSolver solver(sys, 32);
        solver.reset(x0);
        solver.iterate(iters, omega);
        return solver.solution();
      }));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, SymmetricKernel,
                         ::testing::Values(JacobiCase{{1, 1}, 3, 64}, JacobiCase{{2, 7}, 2, 32},
                                           JacobiCase{{17, 1023}, 7, 64},
                                           JacobiCase{{512, 40}, 4, 128}, JacobiCase{{513, 300}, 9, 96}),
                         gpgpu::jacobi::checks::case_name);

// The measurement: your kernel (32 B per node) beside chapter 05's nine-diagonal kernel (48 B), each
// against the limit the GPU reaches for its own read:write mix (7:1 and 11:1), measured in the same
// run. It asserts only that the timed kernel computes the iteration.
TEST(Measure, YourKernelBesideChapter05sAgainstTheLimit) {
  const std::unique_ptr<gpgpu::Session> gpu = gpgpu::cuda::open_session(0);
  const gpgpu::jacobi::Grid g{4096, 4096};
  constexpr int kIters = 20;
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  SymmetricSolver yours(sys, 64);
  yours.reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "your kernel (5 diagonals)", gpgpu::jacobi::work("jacobi9_symmetric", g, kIters),
                                 gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9_symmetric", g)),
                                 [&] { return yours.iterate(kIters); });
  const gpgpu::jacobi::cuda::LaunchOptions launch{};
  const auto pitched = gpgpu::jacobi::cuda::pitched_variant(launch).make(sys, *gpu);
  pitched->reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "chapter 05's pitched (9 diagonals)", gpgpu::jacobi::work("jacobi9", g, kIters),
                                 gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g)), [&] {
                                   return pitched->iterate(kIters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
                                 });
  yours.reset(x0);
  yours.iterate(3);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(yours.solution(), sys, x0, 3));
}

}  // namespace
