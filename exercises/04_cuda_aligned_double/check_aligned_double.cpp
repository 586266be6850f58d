// The check of exercise 04: the offset is the smallest line-aligned one for 4- and 8-byte words
// and 64- and 128-byte lines (and puts unknown 0 of a double iterate at the start of a 128-byte
// line), and the kernel with a double iterate over the float matrix matches the double reference
// to near double rounding: far tighter than any float arithmetic can (a wrong index cannot hide
// either), at the default ω and at another (a kernel that hard-codes 0.8 fails), and leaves every
// ghost and the NaN guard zones around both iterates as they were (a thread past the last unknown
// that writes fails). Measure.* reports
// its rate beside chapter 04's float kernel; it asserts only correctness. The same checks run on the
// CPU emulation in check_aligned_double_emulated.cpp.
#include <array>
#include <cstdint>
#include <iostream>
#include <memory>
#include <utility>

#include <gtest/gtest.h>

#include "aligned_double.hpp"
#include "aligned_double_checks.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/guard_zones.hpp"
#include "gpgpu/jacobi/layouts.hpp"

namespace {

using gpgpu::cuda::DeviceBuffer;

TEST(AlignedOffset, IsTheSmallestAlignedOffsetPastTheGhosts) {
  EXPECT_TRUE(ex04::checks::offset_is_the_smallest_aligned_one_past_the_ghosts());
}

// The host side: the float matrix and f as the chapters upload them, two double iterates with the
// student's ghost offset, each between guard zones of NaN, the ping-pong loop timed by CUDA events.
class MixedSolver {
 public:
  explicit MixedSolver(const gpgpu::jacobi::LinearSystem& sys)
      : grid_(sys.grid), n_(static_cast<std::size_t>(sys.grid.nodes())),
        offset_(ex04::aligned_offset_elements(sys.grid.nx, 128, 8)) {
    for (std::size_t d = 0; d < 9; ++d) {
      diag_[d] = DeviceBuffer<float>(n_);
      diag_[d].upload(sys.A.diag[d]);
    }
    f_ = DeviceBuffer<float>(n_);
    f_.upload(sys.rhs);
    const auto padded = static_cast<std::size_t>(gpgpu::jacobi::ghost_padded_length(grid_, offset_, 16));
    for (auto& x : x_) x = DeviceBuffer<double>(guard_ + padded + guard_);
  }

  // Each iterate between its guard zones (ex04::checks::guarded_iterates): x with x0, x_new NaN.
  void reset(std::span<const float> x0) {
    was_ = ex04::checks::guarded_iterates(grid_, x0, offset_, guard_);
    for (std::size_t b = 0; b < 2; ++b) x_[b].upload(was_[b]);
    current_ = 0;
  }

  double iterate(int iters, double omega = gpgpu::jacobi::kDefaultOmega) {
    timer_.start();
    for (int it = 0; it < iters; ++it) {
      const std::size_t in = static_cast<std::size_t>(current_);
      ex04::MixedArgs a{{}, f_.get(), x_[in].get() + guard_, x_[1 - in].get() + guard_, grid_.nx, static_cast<int>(n_),
                        static_cast<int>(offset_), omega};
      for (std::size_t d = 0; d < 9; ++d) a.diag[d] = diag_[d].get();
      ex04::launch_jacobi_mixed(a, kBlock);
      current_ ^= 1;
    }
    timer_.stop();
    return timer_.seconds();
  }

  [[nodiscard]] std::vector<double> solution() const {
    return x_[static_cast<std::size_t>(current_)].download(guard_ + static_cast<std::size_t>(offset_), n_);
  }
  /// Whether every guard and ghost of both iterates is what reset() wrote there.
  [[nodiscard]] ::testing::AssertionResult untouched_outside_the_unknowns() const {
    for (std::size_t b = 0; b < 2; ++b) {
      const std::vector<double> now = x_[b].download(0, x_[b].size());
      if (auto r = gpgpu::jacobi::checks::untouched_outside(std::span<const double>(now), std::span<const double>(was_[b]),
                                                            guard_ + static_cast<std::size_t>(offset_), n_);
          !r)
        return r << " (iterate " << b << ")";
    }
    return ::testing::AssertionSuccess();
  }
  /// Whether unknown 0 of each iterate starts a 128-byte line (cudaMalloc aligns the base to 256 B).
  [[nodiscard]] bool unknown0_starts_a_line() const {
    for (const auto& x : x_)
      if (reinterpret_cast<std::uintptr_t>(x.get() + guard_ + offset_) % 128 != 0) return false;
    return true;
  }

 private:
  static constexpr int kBlock = 64;
  gpgpu::jacobi::Grid grid_;
  std::size_t n_;
  std::int64_t offset_;
  std::size_t guard_ = ex04::checks::guard_length(kBlock);
  std::array<std::vector<double>, 2> was_;
  std::array<DeviceBuffer<float>, 9> diag_;
  DeviceBuffer<float> f_;
  std::array<DeviceBuffer<double>, 2> x_;
  int current_ = 0;
  gpgpu::cuda::EventTimer timer_;
};

using ex04::checks::near_double_rounding;

struct Case {
  gpgpu::jacobi::Grid grid;
  int iters;
};

class AlignedDouble : public ::testing::TestWithParam<Case> {};  // device 0: opened by the test main

TEST_P(AlignedDouble, MatchesTheDoubleReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 4);
  MixedSolver solver(sys);
  EXPECT_TRUE(solver.unknown0_starts_a_line());
  solver.reset(x0);
  solver.iterate(c.iters);
  const std::vector<double> ref = gpgpu::jacobi::jacobi_reference(sys, x0, c.iters, gpgpu::jacobi::kDefaultOmega);
  EXPECT_TRUE(near_double_rounding(solver.solution(), ref, c.iters)) << c.grid.str() << ", " << c.iters << " iterations";
  EXPECT_TRUE(solver.untouched_outside_the_unknowns()) << c.grid.str();
}

// The kernel must use the ω it is given: iterates at ω = 0.6 against the reference at 0.6.
TEST(AlignedDoubleOmega, UsesTheOmegaItIsGiven) {
  const gpgpu::jacobi::Grid g{17, 33};
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const auto x0 = gpgpu::jacobi::checks::random_guess(g.nodes(), 5);
  const double omega = gpgpu::jacobi::checks::kOtherOmega;
  MixedSolver solver(sys);
  solver.reset(x0);
  solver.iterate(3, omega);
  EXPECT_TRUE(near_double_rounding(solver.solution(), gpgpu::jacobi::jacobi_reference(sys, x0, 3, omega), 3));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, AlignedDouble,
                         ::testing::Values(Case{{1, 1}, 3}, Case{{2, 7}, 2}, Case{{17, 1023}, 7},
                                           Case{{513, 1024}, 10}),
                         [](const auto& info) {
                           std::string name = info.param.grid.str();
                           name += "_it" + std::to_string(info.param.iters);
                           return name;
                         });

// The measurement: your kernel beside chapter 04's float kernel, each against the limit the GPU
// reaches for its own read:write mix, measured in the same run. Yours moves 9 + 1 floats and two
// doubles per node (56 B, 48 read : 8 written, measured as a stream of 12 float arrays read and
// 2 written); chapter 04's 48 B (11:1).
TEST(Measure, YourKernelBesideChapter04sAgainstTheLimit) {
  const std::unique_ptr<gpgpu::Session> gpu = gpgpu::cuda::open_session(0);
  const gpgpu::jacobi::Grid g{4096, 2048};
  constexpr int kIters = 20;
  const auto sys = gpgpu::jacobi::assemble_bidomain(g);
  const std::vector<float> x0(static_cast<std::size_t>(g.nodes()), 0.0f);
  gpgpu::Work mixed = gpgpu::jacobi::work("jacobi9", g, kIters);
  mixed.kernel = "jacobi9, double x";
  mixed.bytes_min = 56.0 * static_cast<double>(g.nodes()) * kIters;
  gpgpu::StreamMix mixed_mix;  // 12 float arrays read (9 diagonals, f, x as two), 2 written (x_new)
  mixed_mix.reads = 12;
  mixed_mix.writes = 2;
  mixed_mix.elements = static_cast<std::size_t>(g.nodes());
  const gpgpu::Limit mixed_limit = gpu->stream_limit(mixed_mix);
  MixedSolver yours(sys);
  yours.reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "your kernel (float matrix, double x)", mixed, mixed_limit,
                                 [&] { return yours.iterate(kIters); });
  const gpgpu::jacobi::cuda::LaunchOptions launch{};
  const auto aligned = gpgpu::jacobi::cuda::aligned32_variant(launch).make(sys, *gpu);
  aligned->reset(x0);
  gpgpu::jacobi::measure::report(std::cout, "chapter 04's aligned32 (float)", gpgpu::jacobi::work("jacobi9", g, kIters),
                                 gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g)),
                                 [&] { return aligned->iterate(kIters, static_cast<float>(gpgpu::jacobi::kDefaultOmega)); });
  yours.reset(x0);
  yours.iterate(3);
  EXPECT_TRUE(near_double_rounding(yours.solution(),
                                   gpgpu::jacobi::jacobi_reference(sys, x0, 3, gpgpu::jacobi::kDefaultOmega), 3));
}

}  // namespace
