// The check of exercise 03, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`). The unknowns lie between two guard zones of NaN, in x and in x_new: a read
// outside the grid multiplies NaN (0 × NaN is NaN) and fails the comparison with the CPU
// double-precision reference, and a write outside the grid shows as a guard that is no longer NaN.
// Awkward sizes: one unknown, one row, one column, widths no block divides, odd and even iteration
// counts; and one run at an ω other than the default (a kernel that hard-codes 0.8 fails). Measure.* times the kernel beside chapter 03's and holds both against the limit the GPU
// reaches for their read:write mix, measured in the same run; it asserts only that the result is right.
#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "guard_zones.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "unpadded_borders.hpp"

namespace {

using gpgpu::cuda::DeviceBuffer;
using gpgpu::jacobi::Grid;
constexpr float kOmega = static_cast<float>(gpgpu::jacobi::kDefaultOmega);

// The host side: nine diagonals and f as chapter 03 stores them; two iterates of nx*ny unknowns,
// each between `guard` NaN values on either side.
class UnpaddedSolver {
 public:
  UnpaddedSolver(const gpgpu::jacobi::LinearSystem& sys, int block)
      : grid_(sys.grid), n_(static_cast<std::size_t>(sys.grid.nodes())),
        guard_(ex03::checks::guard_length(sys.grid)), block_(block) {
    for (std::size_t d = 0; d < 9; ++d) {
      diag_[d] = DeviceBuffer<float>(n_);
      diag_[d].upload(sys.A.diag[d]);
    }
    f_ = DeviceBuffer<float>(n_);
    f_.upload(sys.rhs);
    for (auto& x : x_) x = DeviceBuffer<float>(guard_ + n_ + guard_);
  }

  void reset(std::span<const float> x0) {
    // NaN everywhere, a payload of each iterate's own: guards and the other iterate's unknowns.
    for (std::size_t b = 0; b < 2; ++b)
      x_[b].upload(std::vector<float>(guard_ + n_ + guard_, gpgpu::jacobi::checks::iterate_guard_nan<float>(b)));
    GPGPU_CUDA_CHECK(cudaMemcpy(x_[0].get() + guard_, x0.data(), n_ * sizeof(float), cudaMemcpyHostToDevice));
    current_ = 0;
  }

  // Device time of `iters` iterations (CUDA events).
  double iterate(int iters, float omega = kOmega) {
    timer_.start();
    for (int it = 0; it < iters; ++it) {
      const std::size_t in = static_cast<std::size_t>(current_);
      const ex03::UnpaddedArgs a{{diag_[0].get(), diag_[1].get(), diag_[2].get(), diag_[3].get(), diag_[4].get(),
                                  diag_[5].get(), diag_[6].get(), diag_[7].get(), diag_[8].get()},
                                 f_.get(), x_[in].get() + guard_, x_[1 - in].get() + guard_, grid_.nx, grid_.ny, omega};
      ex03::launch_jacobi_unpadded(a, block_);
      current_ ^= 1;
    }
    timer_.stop();
    return timer_.seconds();
  }

  [[nodiscard]] std::vector<float> solution() const {
    return x_[static_cast<std::size_t>(current_)].download(guard_, n_);
  }

  // Whether every guard value of both iterates is still the NaN the reset wrote there.
  [[nodiscard]] ::testing::AssertionResult guards_untouched() const {
    for (std::size_t b = 0; b < 2; ++b) {
      const std::vector<float> all = x_[b].download(0, x_[b].size());
      if (auto r = ex03::checks::guards_untouched(all, guard_, n_, b); !r) return r << " (iterate " << b << ")";
    }
    return ::testing::AssertionSuccess();
  }

 private:
  Grid grid_;
  std::size_t n_, guard_;
  int block_;
  std::array<DeviceBuffer<float>, 9> diag_;
  DeviceBuffer<float> f_;
  std::array<DeviceBuffer<float>, 2> x_;
  int current_ = 0;
  gpgpu::cuda::EventTimer timer_;
};

using gpgpu::jacobi::checks::JacobiCase;

class UnpaddedBorders : public ::testing::TestWithParam<JacobiCase> {};  // device 0: opened by the test main

TEST_P(UnpaddedBorders, MatchesTheReferenceAndStaysInsideTheGrid) {
  const JacobiCase c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 3);
  UnpaddedSolver solver(sys, c.block);
  solver.reset(x0);
  solver.iterate(c.iters);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver.solution(), sys, x0, c.iters));
  EXPECT_TRUE(solver.guards_untouched());
}

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST(UnpaddedBordersOmega, UsesTheOmegaItIsGiven) {
  EXPECT_TRUE(gpgpu::jacobi::checks::uses_the_omega_it_is_given(
      [](const auto& sys, std::span<const float> x0, int iters, double omega) {
        UnpaddedSolver solver(sys, 64);
        solver.reset(x0);
        solver.iterate(iters, static_cast<float>(omega));
        return solver.solution();
      }));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, UnpaddedBorders,
                         ::testing::Values(JacobiCase{{1, 1}, 3, 64}, JacobiCase{{1, 9}, 2, 64},
                                           JacobiCase{{9, 1}, 2, 64}, JacobiCase{{2, 7}, 2, 64},
                                           JacobiCase{{17, 1023}, 7, 100}, JacobiCase{{513, 1024}, 10, 64},
                                           JacobiCase{{4097, 33}, 5, 256}),
                         gpgpu::jacobi::checks::case_name);

// The measurement: your kernel and chapter 03's, at a size far beyond the L2, against the limit.
TEST(Measure, YourKernelBesideChapter03sAgainstTheLimit) {
  const std::unique_ptr<gpgpu::Session> gpu = gpgpu::cuda::open_session(0);
  const Grid g{4096, 2048};
  constexpr int kIters = 20;
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  const gpgpu::Limit limit = gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g));
  const gpgpu::Work work = gpgpu::jacobi::work("jacobi9", g, kIters);
  UnpaddedSolver yours(sys, 64);
  yours.reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "your kernel (range tests, no ghosts)", work, limit,
                                 [&] { return yours.iterate(kIters); });
  const gpgpu::jacobi::cuda::LaunchOptions launch{};
  const auto simple = gpgpu::jacobi::cuda::simple_variant(launch).make(sys, *gpu);
  simple->reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "chapter 03's simple (ghost padding)", work, limit,
                                 [&] { return simple->iterate(kIters, kOmega); });
  // The figures above are for reading; what is asserted is that the timed kernel computed the iteration.
  yours.reset(x0);
  yours.iterate(3);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(yours.solution(), sys, x0, 3));
}

}  // namespace
