// Every CUDA Jacobi variant against the CPU double-precision reference: awkward sizes (1x1, 2x7,
// 17x1023, 513x1024, 4097x33, a grid taller than gridDim.y allows, one larger than the H100's L2),
// random initial guesses, odd and even iteration counts (the ping-pong parity), default and
// non-default launch configurations. The output buffer's unknowns are NaN before every run
// (Solver::upload), so an element a kernel does not write fails the comparison.
#include <map>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "gpgpu/cuda_jacobi.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/reference.hpp"
#include "gpgpu/spectral.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/testing/jacobi_check.hpp"

namespace {

namespace cj = gpgpu::cuda_jacobi;
using gpgpu::Grid;

struct Case {
  Grid grid;
  int iters;
  cj::LaunchConfig launch;  // zeros: the variant's defaults
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c{
      {{1, 1}, 5, {}},
      {{2, 7}, 1, {}},
      {{2, 7}, 2, {32, 2, 2}},
      {{17, 1023}, 7, {}},
      {{17, 1023}, 8, {96, 3, 3}},          // blocks that are not a multiple of a warp
      {{512, 37}, 4, {}},                   // pitch == nx: cudaMallocPitch adds no padding
      {{513, 1024}, 11, {}},                // the paper's awkward width
      {{4097, 33}, 6, {256, 4, 5}},
      {{3, 70000}, 3, {64, 1, 1}},          // more rows than gridDim.y may hold: the kernels loop
      // 2600 x 2600: 325 MB of matrix, f and x, larger than the 50 MB L2 of an H100.
      {{2600, 2600}, 3, {}},
  };
  return c;
}

using gpgpu::testing::random_guess;

// Assembly and reference once per case, shared by all variants.
struct CaseData {
  gpgpu::LinearSystem sys;
  std::vector<float> x0;
  std::vector<double> reference;
};

const CaseData& data(std::size_t index) {
  static std::map<std::size_t, CaseData> cache;
  auto it = cache.find(index);
  if (it == cache.end()) {
    const Case& c = cases()[index];
    CaseData d{gpgpu::assemble_bidomain(c.grid), random_guess(c.grid.nodes(), 41 + static_cast<unsigned>(index)), {}};
    d.reference = gpgpu::jacobi_reference(d.sys, d.x0, c.iters, gpgpu::kDefaultOmega);
    it = cache.emplace(index, std::move(d)).first;
  }
  return it->second;
}

class CudaJacobi : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};  // device 0: opened by the test main

TEST_P(CudaJacobi, MatchesTheReference) {
  const auto& [variant, index] = GetParam();
  const Case& c = cases()[index];
  const CaseData& d = data(index);
  auto solver = cj::make_solver(variant, d.sys, c.launch);
  solver->upload(d.x0);
  solver->run(c.iters, static_cast<float>(gpgpu::kDefaultOmega));
  const auto v = gpgpu::verify_solution(solver->download(), d.reference, gpgpu::jacobi_tolerance(c.iters));
  EXPECT_TRUE(v.pass) << variant << " on " << c.grid.str() << " (" << solver->launch_text() << "): " << v.summary();
}

std::string case_name(const ::testing::TestParamInfo<CudaJacobi::ParamType>& info) {
  const auto& [variant, index] = info.param;
  const Case& c = cases()[index];
  std::string name = variant;  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + b chains
  name += "_";
  name += c.grid.str();
  name += "_it";
  name += std::to_string(c.iters);
  if (c.launch.block_x > 0) {
    name += "_b";
    name += std::to_string(c.launch.block_x);
  }
  return name;
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const cj::VariantInfo& v : cj::variants()) names.emplace_back(v.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CudaJacobi,
                         ::testing::Combine(::testing::ValuesIn(variant_names()),
                                            ::testing::Range<std::size_t>(0, cases().size())),
                         case_name);

class CudaJacobiSolver : public ::testing::TestWithParam<std::string> {};  // device 0: opened by the test main

TEST_P(CudaJacobiSolver, ZeroIterationsGiveTheUploadBack) {
  // Upload and download agree on the layout (ghosts, offsets, pitch) for every variant.
  const auto sys = gpgpu::assemble_bidomain({37, 19});
  const auto x0 = random_guess(sys.grid.nodes(), 5);
  auto solver = cj::make_solver(GetParam(), sys);
  solver->upload(x0);
  solver->run(0, 0.8f);
  EXPECT_EQ(solver->download(), x0);
}

TEST_P(CudaJacobiSolver, RunContinuesTheIteration) {
  // 3 + 4 iterations are 7 iterations, bit for bit: the solver keeps track of which buffer is current.
  const auto sys = gpgpu::assemble_bidomain({45, 30});
  const auto x0 = random_guess(sys.grid.nodes(), 6);
  auto solver = cj::make_solver(GetParam(), sys);
  solver->upload(x0);
  solver->run(3, 0.8f);
  solver->run(4, 0.8f);
  const auto split = solver->download();
  solver->upload(x0);
  EXPECT_GT(solver->run(7, 0.8f), 0.0);  // CUDA events measured some time
  EXPECT_EQ(solver->download(), split);
}

TEST_P(CudaJacobiSolver, TuningKeepsTheResultCorrect) {
  // Tuning changes block size and rows per thread; the solver must still compute the same iteration.
  const auto sys = gpgpu::assemble_bidomain({203, 77});
  const auto x0 = random_guess(sys.grid.nodes(), 9);
  auto solver = cj::make_solver(GetParam(), sys);
  const std::string tuned = solver->tune(3, 0.8f);
  const bool tunable = GetParam() == "multirow" || GetParam() == "symmetric";
  EXPECT_EQ(tuned.empty(), !tunable) << tuned;
  solver->upload(x0);
  solver->run(5, static_cast<float>(gpgpu::kDefaultOmega));
  EXPECT_TRUE(gpgpu::testing::matches_reference(solver->download(), sys, x0, 5)) << tuned;
}

TEST_P(CudaJacobiSolver, RefusesBlocksCudaCannotLaunch) {
  const auto sys = gpgpu::assemble_bidomain({8, 8});
  EXPECT_THROW((void)cj::make_solver(GetParam(), sys, {2048, 1, 0}), gpgpu::UsageError);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, CudaJacobiSolver, ::testing::ValuesIn(variant_names()),
                         [](const auto& info) { return info.param; });

TEST(CudaJacobiRegistry, UnknownVariantIsAUsageError) {
  const auto sys = gpgpu::assemble_bidomain({4, 4});
  EXPECT_THROW((void)cj::make_solver("no_such_kernel", sys), gpgpu::UsageError);
}

}  // namespace
