/// @file variant_checks.hpp
/// @brief The checks every CUDA chapter's test runs on each variant it introduces, on device 0:
/// the awkward cases against the CPU double-precision reference (gpgpu::jacobi::checks: one
/// unknown, widths and heights no block divides, pitch == nx, more rows than gridDim.y holds, a
/// grid beyond the L2; odd and even iteration counts; default and odd launch shapes), the Solver
/// contract, tuning that keeps the result correct, and usage errors for blocks CUDA cannot launch
/// and grids the device cannot hold. The iterate a kernel writes is NaN before every run (reset()),
/// so an element it does not write fails.
///
/// A chapter's test includes this header once and instantiates the checks with its factories:
/// @code
///   GPGPU_CUDA_VARIANT_CHECKS(Ch03, ::testing::Values(gpgpu::jacobi::cuda::checks::Factory{"simple", gpgpu::jacobi::cuda::simple_variant}));
/// @endcode
#pragma once
#include <memory>
#include <ostream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/checks.hpp"

namespace gpgpu::jacobi::cuda::checks {

using gpgpu::jacobi::checks::JacobiCase;

/// A variant under test: its factory (simple_variant, aligned_variant, ...), and whether it tunes.
struct Factory {
  const char* name;
  gpgpu::jacobi::Variant (*make)(const LaunchOptions&);
  bool tunable = false;
};
inline void PrintTo(const Factory& f, std::ostream* os) { *os << f.name; }

/// Device 0, opened once per test program (the test main has made sure there is one).
inline gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::open_session(0);
  return *s;
}

/// The variant's solver for `sys` with `launch` (the spec reads it while making the solver).
inline std::unique_ptr<gpgpu::jacobi::Solver> solver(const Factory& f, const gpgpu::jacobi::LinearSystem& sys,
                                                     const LaunchOptions& launch = {}) {
  return f.make(launch).make(sys, session());
}

/// The launch of an awkward case: its block width, and a block height and rows per thread that go
/// with it (small, odd, and 1 for the case taller than gridDim.y, so that the row loops run).
inline LaunchOptions launch_of(const JacobiCase& c) {
  LaunchOptions l;
  l.block = c.block;
  l.block_y = l.rows_per_thread = c.block == 32 ? 2 : c.block == 96 ? 3 : c.block == 256 ? 4 : c.block > 0 ? 1 : 0;
  return l;
}

class CudaVariantCases : public ::testing::TestWithParam<std::tuple<Factory, JacobiCase>> {};

TEST_P(CudaVariantCases, MatchesTheReference) {
  const auto& [factory, c] = GetParam();
  const auto s = solver(factory, gpgpu::jacobi::checks::case_data(c).sys, launch_of(c));
  EXPECT_TRUE(gpgpu::jacobi::checks::solves_case(*s, c)) << factory.name;
}

/// "simple_17x1023_it7_b96".
inline std::string case_param_name(const ::testing::TestParamInfo<CudaVariantCases::ParamType>& info) {
  const auto& [factory, c] = info.param;
  std::string name = factory.name;  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + b chains
  name += "_";
  name += gpgpu::jacobi::checks::case_name({c, info.index});
  return name;
}

class CudaVariant : public ::testing::TestWithParam<Factory> {};

TEST_P(CudaVariant, KeepsTheSolverContract) {
  // Upload and download agree on the layout (ghosts, offsets, pitch); the solver tracks which
  // iterate is current; CUDA events measure some time.
  for (const gpgpu::jacobi::Grid g : {gpgpu::jacobi::Grid{37, 19}, gpgpu::jacobi::Grid{45, 30}}) {
    const auto sys = gpgpu::jacobi::assemble_bidomain(g);
    EXPECT_TRUE(gpgpu::jacobi::checks::keeps_the_solver_contract(*solver(GetParam(), sys), sys)) << g.str();
  }
}

TEST_P(CudaVariant, TuningKeepsTheResultCorrect) {
  // Tuning changes the block size and the rows per thread; the solver must still compute the same
  // iteration. Only the variants with launch candidates tune, and only when the user fixed none.
  const auto sys = gpgpu::jacobi::assemble_bidomain({203, 77});
  const auto x0 = gpgpu::jacobi::checks::random_guess(sys.grid.nodes(), 9);
  const auto s = solver(GetParam(), sys);
  const std::string tuned = s->tune(3, 0.8f);
  EXPECT_EQ(tuned.empty(), !GetParam().tunable) << tuned;
  s->reset(x0);
  s->iterate(5, static_cast<float>(gpgpu::jacobi::kDefaultOmega));
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(s->solution(), sys, x0, 5)) << tuned;
  LaunchOptions fixed;
  fixed.block = 64;
  EXPECT_EQ(solver(GetParam(), sys, fixed)->tune(3, 0.8f), "");  // a block the user gave is kept
}

TEST_P(CudaVariant, RefusesBlocksCudaCannotLaunch) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({8, 8});
  LaunchOptions wide;
  wide.block = 2048;
  EXPECT_THROW((void)solver(GetParam(), sys, wide), gpgpu::UsageError);
}

TEST_P(CudaVariant, RefusesGridsTheDeviceCannotHold) {
  // 10^10 unknowns: 320 GB even with the symmetric storage, before anything is allocated.
  const gpgpu::jacobi::Variant spec = GetParam().make({});
  ASSERT_TRUE(spec.check_fits);
  EXPECT_THROW(spec.check_fits({100000, 100000}, session()), gpgpu::UsageError);
  EXPECT_NO_THROW(spec.check_fits({64, 64}, session()));
}

/// "simple".
inline std::string factory_name(const ::testing::TestParamInfo<Factory>& info) { return info.param.name; }

}  // namespace gpgpu::jacobi::cuda::checks

/// Instantiates every check above for `factories` (a ::testing::Values of gpgpu::jacobi::cuda::checks::Factory)
/// under the name `prefix`.
#define GPGPU_CUDA_VARIANT_CHECKS(prefix, factories)                                                                  \
  namespace gpgpu::jacobi::cuda::checks {                                                                                           \
  INSTANTIATE_TEST_SUITE_P(                                                                                          \
      prefix, CudaVariantCases,                                                                                      \
      ::testing::Combine(factories, ::testing::ValuesIn(gpgpu::jacobi::checks::awkward_cases(/*beyond_l2=*/true))), \
      case_param_name);                                                                                              \
  INSTANTIATE_TEST_SUITE_P(prefix, CudaVariant, factories, factory_name);                                            \
  }                                                                                                                  \
  static_assert(true, "a semicolon after the macro")
