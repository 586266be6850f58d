// Chapter 01's solvers against the double-precision reference, at awkward sizes, from a random
// initial guess, for odd and even iteration counts (the ping-pong parity) and several thread counts.
#include <gtest/gtest.h>

#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/jacobi/checks.hpp"

namespace {

using gpgpu::jacobi::Grid;

using gpgpu::jacobi::checks::random_guess;  // uniform in [-10, 10) mV, the scale of the solution

struct Case {
  Grid grid;
  int iters;
  int threads;
};

class Ch01Solvers : public ::testing::TestWithParam<Case> {};

template <typename Solver>
void expect_matches_reference(Solver&& solver, const gpgpu::jacobi::LinearSystem& sys, const Case& c) {
  const auto x0 = random_guess(sys.grid.nodes(), 17);
  solver.reset(x0);
  solver.iterate(c.iters, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solver.solution(), sys, x0, c.iters));
}

TEST_P(Ch01Solvers, SeparateDiagonalsMatchTheReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  expect_matches_reference(gpgpu::jacobi::cpu::SeparateDiagonalsSolver(sys, c.threads), sys, c);
}

TEST_P(Ch01Solvers, InterleavedRowsMatchTheReference) {
  const Case c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  expect_matches_reference(gpgpu::jacobi::cpu::InterleavedRowsSolver(sys, c.threads), sys, c);
}

INSTANTIATE_TEST_SUITE_P(
    AwkwardSizes, Ch01Solvers,
    ::testing::Values(Case{{1, 1}, 5, 1}, Case{{2, 7}, 1, 1}, Case{{2, 7}, 2, 3}, Case{{17, 1023}, 7, 1},
                      Case{{17, 1023}, 8, 3}, Case{{33, 17}, 100, 2}, Case{{1023, 1}, 4, 2},
                      // 1100 x 1000 floats: 53 MB of data per iteration, larger than a GPU's or
                      // most CPUs' L2; a few iterations keep the test short.
                      Case{{1100, 1000}, 3, 2}),
    [](const auto& info) {
      const Case& c = info.param;
      std::string name = "g";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "g" + ...
      name += c.grid.str();
      name += "_it" + std::to_string(c.iters);
      name += "_t" + std::to_string(c.threads);
      return name;
    });

TEST(Ch01Solvers, LayoutsAgreeToTheLastBit) {
  // Same arithmetic in the same order: the two layouts and any thread count give identical floats.
  const auto sys = gpgpu::jacobi::assemble_bidomain({45, 31});
  const auto x0 = random_guess(sys.grid.nodes(), 3);
  gpgpu::jacobi::cpu::SeparateDiagonalsSolver separate(sys, 1);
  gpgpu::jacobi::cpu::InterleavedRowsSolver interleaved(sys, 4);
  separate.reset(x0);
  interleaved.reset(x0);
  separate.iterate(25, 0.8f);
  interleaved.iterate(25, 0.8f);
  EXPECT_EQ(separate.solution(), interleaved.solution());
}

TEST(Ch01Solvers, ResetStartsOver) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({20, 10});
  const auto x0 = random_guess(sys.grid.nodes(), 8);
  gpgpu::jacobi::cpu::InterleavedRowsSolver solver(sys, 2);
  solver.reset(x0);
  solver.iterate(3, 0.8f);
  const auto first = solver.solution();
  solver.reset(x0);
  solver.iterate(3, 0.8f);
  EXPECT_EQ(first, solver.solution());
  EXPECT_NE(first, x0);
}

TEST(Ch01Solvers, IterateTimesItselfAndContinues) {
  // 3 + 4 iterations are 7, bit for bit; each call reports the time it took.
  const auto sys = gpgpu::jacobi::assemble_bidomain({8, 8});
  const auto x0 = random_guess(sys.grid.nodes(), 1);
  gpgpu::jacobi::cpu::SeparateDiagonalsSolver split(sys, 2), whole(sys, 2);
  split.reset(x0);
  EXPECT_GT(split.iterate(3, 0.8f), 0.0);
  EXPECT_GT(split.iterate(4, 0.8f), 0.0);
  whole.reset(x0);
  whole.iterate(7, 0.8f);
  EXPECT_EQ(split.solution(), whole.solution());
}

}  // namespace

namespace {

TEST(Ch01Baseline, MeasuresPositiveTimesForBothThreadCounts) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({64, 64});
  const gpgpu::jacobi::CpuBaseline b = gpgpu::jacobi::cpu::measure_cpu_baseline(sys, 3, 2);
  EXPECT_GT(b.single_thread_s_per_iter, 0.0);
  EXPECT_GT(b.multi_thread_s_per_iter, 0.0);
  EXPECT_EQ(b.threads, 2);
}

}  // namespace

namespace {

TEST(Ch01Solvers, KeepTheSolverContract) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({37, 19});
  gpgpu::jacobi::cpu::SeparateDiagonalsSolver separate(sys, 2);
  gpgpu::jacobi::cpu::InterleavedRowsSolver interleaved(sys, 1);
  EXPECT_TRUE(gpgpu::jacobi::checks::keeps_the_solver_contract(separate, sys));
  EXPECT_TRUE(gpgpu::jacobi::checks::keeps_the_solver_contract(interleaved, sys));
}

class Ch01AwkwardCases : public ::testing::TestWithParam<gpgpu::jacobi::checks::JacobiCase> {};

TEST_P(Ch01AwkwardCases, BothLayoutsOnTwoThreads) {
  const auto& c = GetParam();
  const auto& sys = gpgpu::jacobi::checks::case_data(c).sys;
  gpgpu::jacobi::cpu::SeparateDiagonalsSolver separate(sys, 2);
  gpgpu::jacobi::cpu::InterleavedRowsSolver interleaved(sys, 2);
  EXPECT_TRUE(gpgpu::jacobi::checks::solves_case(separate, c));
  EXPECT_TRUE(gpgpu::jacobi::checks::solves_case(interleaved, c));
}

INSTANTIATE_TEST_SUITE_P(Ch01, Ch01AwkwardCases, ::testing::ValuesIn(gpgpu::jacobi::checks::awkward_cases(false)),
                         gpgpu::jacobi::checks::case_name);

}  // namespace
