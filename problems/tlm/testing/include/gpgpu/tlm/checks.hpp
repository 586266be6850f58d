/// @file checks.hpp
/// @brief What every TLM test shares: the awkward cases, random pulses of both signs, a source
/// that changes every step, and the comparison of a solver's run with the reference.
///
/// A solver under test starts from random incident pulses everywhere (so every index of every
/// port is exercised, not just those a point source reaches in a few steps), a source with a random
/// value at every step (so the injection is tested too) and runs its steps in two calls (the
/// second continues the first). Its outputs are poisoned by reset(): a pulse or probe value it
/// does not write is NaN and fails. The tolerance's own tests (bound_cases, tells_right_from_wrong)
/// add the chapter's run from rest, whose field starts far below half precision's range, at the
/// step counts a user might pick, and check that wrong results fail where the field allows it.
#pragma once
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/harness/random.hpp"
#include "gpgpu/tlm/compare.hpp"
#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/solver.hpp"

namespace gpgpu::tlm::checks {

/// One test case: a structure on a mesh, the steps, and how many of them the first run() makes.
struct Case {
  std::string name;
  Scenario scenario = Scenario::cavity;
  Mesh mesh;
  int steps = 1;
  int first = 1;  ///< steps of the first run() call; the rest in a second call
  bool from_rest = false;  ///< the chapter's own run instead: no pulses, the scenario's Gaussian (make_drive)
};

inline void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

/// Random pulses of both signs, uniform in [-1, 1): 12 per node, canonical order.
inline std::vector<float> random_pulses(const Mesh& mesh, unsigned seed) {
  return harness::random_values<float>(kPorts * mesh.nodes(), seed, -1.0f, 1.0f);
}

/// The sizes every variant is tested at: one node; 2 x 3 x 5; x of 67 and 130 (one and two nodes
/// past whole 64-node segments; 63 just short of one); a WR-28 guide and the filter with its
/// irises; odd and even steps (the ping-pong's parity); and, with `beyond_l2`, 256 x 256 x 64
/// (4.2 million nodes, 200 MB of pulses per copy: beyond a 50 MB L2).
inline std::vector<Case> awkward_cases(bool beyond_l2) {
  const double wr28 = kWr28B / 5;
  std::vector<Case> cases{
      {"cavity_1x1x1", Scenario::cavity, {1, 1, 1, 1e-3}, 5, 2},
      {"cavity_2x3x5", Scenario::cavity, {2, 3, 5, 1e-3}, 7, 3},
      {"cavity_63x2x3", Scenario::cavity, {63, 2, 3, 1e-3}, 4, 1},
      {"cavity_67x5x3", Scenario::cavity, {67, 5, 3, 1e-3}, 6, 5},
      {"cavity_130x3x2", Scenario::cavity, {130, 3, 2, 1e-3}, 3, 1},
      {"waveguide_10x5x13", Scenario::waveguide, {10, 5, 13, wr28}, 9, 4},
      {"filter_10x5x47", Scenario::filter, {10, 5, 47, wr28}, 8, 3},
  };
  if (beyond_l2) cases.push_back({"cavity_256x256x64", Scenario::cavity, {256, 256, 64, 1e-3}, 3, 2});
  return cases;
}

/// The chapter's run of `steps` steps of its box on `mesh`, from rest with the 1 V Gaussian (peak at
/// step 48): the field is below half precision's smallest subnormal for the first steps.
inline Case chapter_case(const Mesh& mesh, int steps) {
  return {"chapter_" + std::to_string(mesh.nx) + "x" + std::to_string(mesh.ny) + "x" + std::to_string(mesh.nz) +
              "_steps" + std::to_string(steps),
          Scenario::cavity, mesh, steps, std::max(1, steps / 2), true};
}

/// The step counts the tolerance is tested at: one step, the source still below half's smallest
/// subnormal (8), its peak (48), long after it (200).
inline std::vector<int> bound_steps() { return {1, 8, 48, 200}; }

/// The cases of the tolerance's tests at each of bound_steps(): the chapter's run on 19 x 7 x 5 (the
/// field starts below half's range) and random pulses with a random source on 9 x 7 x 5 (every
/// pulse in it from the start).
inline std::vector<Case> bound_cases() {
  std::vector<Case> cases;
  for (int steps : bound_steps()) {
    cases.push_back(chapter_case({19, 7, 5, 1e-3}, steps));
    cases.push_back({"random_9x7x5_steps" + std::to_string(steps), Scenario::cavity, {9, 7, 5, 1e-3}, steps,
                     std::max(1, steps / 2)});
  }
  return cases;
}

/// "cavity_2x3x5" and the like, for test names.
inline std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

/// The setup of a case, built once per process and kept (solvers hold a reference to it): the
/// scenario's structure, a source and a probe at nodes off every symmetry plane, and a source
/// waveform of random values in [-1, 1); from rest, the chapter's source and probe (make_drive).
inline const Setup& setup_of(const Case& c) {
  static std::map<std::string, std::unique_ptr<Setup>> cache;
  auto& slot = cache[c.name];
  if (!slot) {
    const Mesh& m = c.mesh;
    Drive d;
    d.source = {m.nx / 3, m.ny / 2, (2 * m.nz) / 3, 1};
    d.probe = {(2 * m.nx) / 3, m.ny / 3, m.nz / 4, 2};
    d.waveform = harness::random_values<float>(c.steps, 99, -1.0f, 1.0f);
    if (c.from_rest) d = make_drive(c.scenario, m);
    slot = std::make_unique<Setup>(Setup{make_structure(c.scenario, m), d, c.steps});
  }
  return *slot;
}

/// The incident pulses a case starts from: random_pulses(seed 7), or zero from rest.
inline std::vector<float> initial_pulses(const Case& c) {
  if (c.from_rest) return std::vector<float>(static_cast<std::size_t>(kPorts * c.mesh.nodes()), 0.0f);
  return random_pulses(c.mesh, 7);
}

/// The reference of a case from its initial pulses, computed once per process.
inline const ReferenceRun& reference_of(const Case& c) {
  static std::map<std::string, ReferenceRun> cache;
  auto it = cache.find(c.name);
  if (it == cache.end()) {
    const Setup& s = setup_of(c);
    it = cache.emplace(c.name, run_reference(s.structure, s.drive, initial_pulses(c), c.steps)).first;
  }
  return it->second;
}

/// The run of a case: `solver` reset to its initial pulses and run for `steps` steps in two calls
/// (the first of c.first steps, or all of them when fewer).
struct Outcome {
  std::vector<float> pulses, probe;
};
inline Outcome run_case(Solver& solver, const Case& c, int steps) {
  solver.reset(initial_pulses(c));
  const int first = std::min(c.first, steps);
  solver.run(first);
  solver.run(steps - first);
  return {solver.pulses(), solver.probe()};
}

/// Passes when `solver`, reset to the case's initial pulses and run for its steps in two calls,
/// matches the reference in pulses, probe and energy within the tolerance of `storage`.
inline ::testing::AssertionResult matches_reference(Solver& solver, const Case& c, Storage storage) {
  const Outcome o = run_case(solver, c, c.steps);
  if (o.pulses.size() != static_cast<std::size_t>(kPorts * c.mesh.nodes()) ||
      o.probe.size() != static_cast<std::size_t>(kProbeValues * c.steps))
    return ::testing::AssertionFailure() << c.name << ": " << o.pulses.size() << " pulses, " << o.probe.size()
                                         << " probe values";
  const RunComparison r = compare_run(o.pulses, o.probe, reference_of(c), tolerance(storage, c.steps, c.mesh));
  const std::string text = c.name + ": pulses " + r.pulses.summary() + "; probe " + r.probe.summary() + "; energy " +
                           r.energy.summary();
  if (r.all().pass) return ::testing::AssertionSuccess() << text;
  return ::testing::AssertionFailure() << text;
}

/// Passes when the tolerance of `storage` tells `solver`'s right result from wrong ones: its run of
/// the case passes, and each of these fails: its pulses with the reference's largest pulse zeroed,
/// the same pulse negated, and the pulses of half the steps (rounded down: the initial pulses after
/// one step; one step fewer is not enough for half storage after 200 steps of the chapter's smooth
/// field, which moves 1.4% in a step against a tolerance of 2.1%). A run whose field lies within the
/// floor (below_floor: the chapter's source before it rises, in half precision) cannot tell right
/// from wrong, and says so: there only the right result is required to pass.
inline ::testing::AssertionResult tells_right_from_wrong(Solver& solver, const Case& c, Storage storage) {
  const ReferenceRun& ref = reference_of(c);
  const Tolerance t = tolerance(storage, c.steps, c.mesh);
  const Outcome right = run_case(solver, c, c.steps);
  const auto judge = [&](std::span<const float> pulses) { return compare_run(pulses, right.probe, ref, t).all(); };
  const Verification verdict = judge(right.pulses);
  if (!verdict.pass)
    return ::testing::AssertionFailure() << c.name << ": the right result fails: " << verdict.summary();
  if (below_floor(ref, t))
    return ::testing::AssertionSuccess() << c.name << ": right: " << verdict.summary()
                                         << "; the field is within the floor: no wrong result can be told from it";

  const auto largest = static_cast<std::size_t>(
      std::max_element(ref.result.pulses.begin(), ref.result.pulses.end(),
                       [](double a, double b) { return std::abs(a) < std::abs(b); }) -
      ref.result.pulses.begin());
  std::vector<std::pair<std::string, std::vector<float>>> wrong{
      {"largest pulse zeroed", right.pulses},
      {"largest pulse negated", right.pulses},
      {"half the steps", run_case(solver, c, c.steps / 2).pulses}};
  wrong[0].second[largest] = 0.0f;
  wrong[1].second[largest] = -wrong[1].second[largest];
  std::string text = c.name + ": right: " + verdict.summary();
  bool all_fail = true;
  for (const auto& [what, pulses] : wrong) {
    const Verification v = judge(pulses);
    text += "; " + what + ": " + v.summary();
    all_fail = all_fail && !v.pass;
  }
  if (all_fail) return ::testing::AssertionSuccess() << text;
  return ::testing::AssertionFailure() << text;
}

}  // namespace gpgpu::tlm::checks
