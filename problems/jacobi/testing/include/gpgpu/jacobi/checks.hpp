/// @file checks.hpp
/// @brief What every Jacobi test and exercise check shares: a random initial guess and the
/// comparison of a result with the CPU double-precision reference.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <ostream>
#include <sstream>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/harness/random.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "gpgpu/jacobi/spectral.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::jacobi::checks {

/// n values uniform in [lo, hi) from a fixed seed. The default range, ±10 mV, is the scale of the
/// solution, so a random initial guess is a realistic one.
inline std::vector<float> random_guess(std::int64_t n, unsigned seed, float lo = -10.0f, float hi = 10.0f) {
  return harness::random_values<float>(n, seed, lo, hi);
}

/// The relaxation factor of the checks that a solver uses the ω it is given: any valid ω other than
/// kDefaultOmega, so that code which hard-codes the chapters' 0.8 fails.
inline constexpr double kOtherOmega = 0.6;

/// Passes when `got` (nx*ny values after `iters` iterations from x0 with `omega`) matches the
/// double-precision reference within `tolerance` (default: jacobi_tolerance(iters)).
inline ::testing::AssertionResult matches_reference_at(double omega, std::span<const float> got, const LinearSystem& sys,
                                                       std::span<const float> x0, int iters, double tolerance = 0) {
  if (static_cast<std::int64_t>(got.size()) != sys.grid.nodes())
    return ::testing::AssertionFailure() << "got " << got.size() << " values for " << sys.grid.nodes() << " unknowns";
  const std::vector<double> ref = jacobi_reference(sys, x0, iters, omega);
  const Verification v = compare_normwise(got, ref, tolerance > 0 ? tolerance : jacobi_tolerance(iters));
  if (v.pass) return ::testing::AssertionSuccess() << v.summary();
  std::ostringstream w;  // 0.6, not GoogleTest's 17 digits
  w << omega;
  return ::testing::AssertionFailure() << sys.grid.str() << ", " << iters << " iterations, ω = " << w.str() << ": "
                                       << v.summary();
}

/// Whether `run(sys, x0, iters, omega)`, which returns the nx*ny unknowns after `iters` iterations
/// from x0, uses the ω it is given: on `grid` from a random guess at kOtherOmega, against the
/// reference at kOtherOmega.
template <class Run>
::testing::AssertionResult uses_the_omega_it_is_given(Run&& run, Grid grid = {17, 33}, int iters = 3) {
  const LinearSystem sys = assemble_bidomain(grid);
  const std::vector<float> x0 = random_guess(grid.nodes(), 29, -5.0f, 5.0f);
  const std::vector<float> got = run(sys, std::span<const float>(x0), iters, kOtherOmega);
  return matches_reference_at(kOtherOmega, got, sys, x0, iters);
}

/// matches_reference_at with ω = kDefaultOmega.
inline ::testing::AssertionResult matches_reference(std::span<const float> got, const LinearSystem& sys,
                                                    std::span<const float> x0, int iters, double tolerance = 0) {
  return matches_reference_at(kDefaultOmega, got, sys, x0, iters, tolerance);
}

/// The parameter of most kernel checks: a grid, an iteration count and the block size to launch.
struct JacobiCase {
  Grid grid;
  int iters = 1;
  int block = 0;
};

/// How GoogleTest prints a JacobiCase in a failure message ("17x1023, 7 iterations, block 100").
inline void PrintTo(const JacobiCase& c, std::ostream* os) {
  *os << c.grid.str() << ", " << c.iters << " iterations, block " << c.block;
}

/// The sizes every solver is tested at: one unknown; a grid narrower than any block; odd widths and
/// heights that are no multiple of any block, tile, warp or vector width; pitch == nx (512); the
/// paper's awkward 513; more rows than gridDim.y holds (3 x 70000); and, with `beyond_l2`, 2600²
/// (325 MB of matrix, f and x: beyond a 50 MB L2). Odd and even iteration counts test the
/// ping-pong parity. `block` 0 means the variant's default.
inline std::vector<JacobiCase> awkward_cases(bool beyond_l2) {
  std::vector<JacobiCase> c{{{1, 1}, 5, 0},   {{2, 7}, 1, 0},     {{2, 7}, 2, 32},      {{17, 1023}, 7, 0},
                            {{17, 1023}, 8, 96}, {{512, 37}, 4, 0}, {{513, 1024}, 11, 0}, {{4097, 33}, 6, 256},
                            {{3, 70000}, 3, 64}};
  if (beyond_l2) c.push_back({{2600, 2600}, 3, 0});
  return c;
}

/// The system, a random initial guess and the reference of a case, computed once per process.
struct CaseData {
  LinearSystem sys;
  std::vector<float> x0;
  std::vector<double> reference;
};
inline const CaseData& case_data(const JacobiCase& c) {
  static std::map<std::tuple<int, int, int>, std::unique_ptr<CaseData>> cache;
  auto& d = cache[{c.grid.nx, c.grid.ny, c.iters}];
  if (!d) {
    d = std::make_unique<CaseData>();
    d->sys = assemble_bidomain(c.grid);
    d->x0 = random_guess(c.grid.nodes(), 41u + static_cast<unsigned>(c.grid.nx) * 7u + static_cast<unsigned>(c.iters));
    d->reference = jacobi_reference(d->sys, d->x0, c.iters, kDefaultOmega);
  }
  return *d;
}

/// Runs `solver` (built for case_data(c).sys) for c.iters iterations from the case's guess and
/// compares with the reference; reset() poisons the other iterate, so an unwritten element fails.
inline ::testing::AssertionResult solves_case(Solver& solver, const JacobiCase& c) {
  const CaseData& d = case_data(c);
  solver.reset(d.x0);
  solver.iterate(c.iters, static_cast<float>(kDefaultOmega));
  const Verification v = compare_normwise(solver.solution(), d.reference, jacobi_tolerance(c.iters));
  if (v.pass) return ::testing::AssertionSuccess() << v.summary();
  return ::testing::AssertionFailure() << c.grid.str() << ", " << c.iters << " iterations (" << solver.launch()
                                       << "): " << v.summary();
}

/// The Solver contract on a small grid: zero iterations hand the guess back unchanged (upload and
/// download agree on the layout), 3 + 4 iterations are 7 bit for bit (the solver tracks which buffer
/// is current), every call reports a positive time, and reset() starts over.
inline ::testing::AssertionResult keeps_the_solver_contract(Solver& solver, const LinearSystem& sys) {
  const std::vector<float> x0 = random_guess(sys.grid.nodes(), 5);
  solver.reset(x0);
  solver.iterate(0, 0.8f);
  if (solver.solution() != x0) return ::testing::AssertionFailure() << "0 iterations changed the guess";
  solver.reset(x0);
  const double t3 = solver.iterate(3, 0.8f);
  const double t4 = solver.iterate(4, 0.8f);
  const std::vector<float> split = solver.solution();
  solver.reset(x0);
  solver.iterate(7, 0.8f);
  if (solver.solution() != split) return ::testing::AssertionFailure() << "3 + 4 iterations differ from 7";
  if (!(t3 > 0.0 && t4 > 0.0)) return ::testing::AssertionFailure() << "iterate() reported no time";
  return ::testing::AssertionSuccess();
}

/// Test-name suffix of a JacobiCase: "17x1023_it7_b100".
inline std::string case_name(const ::testing::TestParamInfo<JacobiCase>& info) {
  const JacobiCase& c = info.param;
  std::string name = c.grid.str();
  name += "_it" + std::to_string(c.iters);
  name += "_b" + std::to_string(c.block);
  return name;
}

}  // namespace gpgpu::jacobi::checks
