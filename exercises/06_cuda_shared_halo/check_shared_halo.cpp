// The check of exercise 06: the 2D shared-memory kernel matches the CPU double-precision reference
// at awkward sizes and block shapes (a single thread, thin, tall, 1024 threads), for odd and even
// iteration counts, and at an ω other than the default (a kernel that hard-codes 0.8 fails); the
// output's unknowns are NaN before the run. Measure.* reports the kernel's rate at several block
// shapes against the limit measured in the same run (no timed assertion). A missing barrier or a
// kernel without shared memory may pass here by luck: check_shared_halo_emulated.cpp catches both.
#include <array>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/pitched_ping_pong.hpp"
#include "shared_halo.hpp"

namespace {

using gpgpu::cuda::PitchedBuffer;
using gpgpu::jacobi::testing::PitchedPingPong;

// The host side: chapter 05's pitched layout, the ping-pong loop timed by CUDA events.
class SharedSolver {
 public:
  SharedSolver(const gpgpu::jacobi::LinearSystem& sys, int bx, int by) : run_(sys.grid), grid_(sys.grid), bx_(bx), by_(by) {
    for (const auto& d : sys.A.diag) diag_.push_back(run_.field(d));
    f_ = run_.field(sys.rhs);
  }

  void reset(std::span<const float> x0) { run_.reset(x0); }

  double iterate(int iters, double omega = gpgpu::jacobi::kDefaultOmega) {
    return run_.iterate(iters, [&](const float* x, float* x_new, int pitch) {
      ex06::SharedArgs a{{}, PitchedPingPong::origin(f_), x, x_new, grid_.nx, grid_.ny, pitch, static_cast<float>(omega)};
      for (std::size_t d = 0; d < 9; ++d) a.diag[d] = PitchedPingPong::origin(diag_[d]);
      ex06::launch_jacobi_shared_2d(a, bx_, by_);
    });
  }

  [[nodiscard]] std::vector<float> solution() const { return run_.solution(); }

 private:
  PitchedPingPong run_;
  gpgpu::jacobi::Grid grid_;
  int bx_, by_;
  std::vector<PitchedBuffer<float>> diag_;
  PitchedBuffer<float> f_;
};

std::vector<float> solve(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int bx, int by) {
  SharedSolver solver(sys, bx, by);
  solver.reset(x0);
  solver.iterate(iters);
  return solver.solution();
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

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST(SharedHaloOmega, UsesTheOmegaItIsGiven) {
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [](const auto& sys, std::span<const float> x0, int iters, double omega) {
        SharedSolver solver(sys, 8, 4);
        solver.reset(x0);
        solver.iterate(iters, omega);
        return solver.solution();
      }));
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

// The measurement: your kernel with chapter 06's block shape (one row of 64 threads) and with 2D
// blocks, each against the limit the GPU reaches for the kernel's read:write mix, measured in the
// same run. It asserts only that the timed kernel computes the iteration.
TEST(Measure, YourKernelAtSeveralBlockShapesAgainstTheLimit) {
  const std::unique_ptr<gpgpu::Session> gpu = gpgpu::cuda::open_session(0);
  const gpgpu::jacobi::Grid g{4096, 2048};
  constexpr int kIters = 20;
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  const gpgpu::Limit limit = gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g));
  for (const auto& [bx, by] : {std::pair{64, 1}, std::pair{32, 8}, std::pair{16, 16}, std::pair{128, 4}}) {
    SharedSolver solver(sys, bx, by);
    solver.reset(x0);
    gpgpu::jacobi::measure::report(std::cout, "your kernel, blocks of " + std::to_string(bx) + "x" + std::to_string(by),
                                   gpgpu::jacobi::work("jacobi9", g, kIters), limit,
                                   [&] { return solver.iterate(kIters); });
    solver.reset(x0);
    solver.iterate(3);
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver.solution(), sys, x0, 3)) << bx << "x" << by;
  }
}

}  // namespace
