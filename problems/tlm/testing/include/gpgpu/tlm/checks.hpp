/// @file checks.hpp
/// @brief What every TLM test shares: the awkward cases, random pulses of both signs, a source
/// that changes every step, and the comparison of a solver's run with the reference.
///
/// A solver under test starts from random incident pulses everywhere (so every index of every
/// port is exercised, not just those a point source reaches in a few steps), a source with a random
/// value at every step (so the injection is tested too) and runs its steps in two calls (the
/// second continues the first). Its outputs are poisoned by reset(): a pulse or probe value it
/// does not write is NaN and fails.
#pragma once
#include <cmath>
#include <map>
#include <memory>
#include <ostream>
#include <span>
#include <string>
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

/// "cavity_2x3x5" and the like, for test names.
inline std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

/// The setup of a case, built once per process and kept (solvers hold a reference to it): the
/// scenario's structure, a source and a probe at nodes off every symmetry plane, and a source
/// waveform of random values in [-1, 1).
inline const Setup& setup_of(const Case& c) {
  static std::map<std::string, std::unique_ptr<Setup>> cache;
  auto& slot = cache[c.name];
  if (!slot) {
    const Mesh& m = c.mesh;
    Drive d;
    d.source = {m.nx / 3, m.ny / 2, (2 * m.nz) / 3, 1};
    d.probe = {(2 * m.nx) / 3, m.ny / 3, m.nz / 4, 2};
    d.waveform = harness::random_values<float>(c.steps, 99, -1.0f, 1.0f);
    slot = std::make_unique<Setup>(Setup{make_structure(c.scenario, m), d, c.steps});
  }
  return *slot;
}

/// The reference of a case from random_pulses(seed 7), computed once per process.
inline const ReferenceRun& reference_of(const Case& c) {
  static std::map<std::string, ReferenceRun> cache;
  auto it = cache.find(c.name);
  if (it == cache.end()) {
    const Setup& p = setup_of(c);
    it = cache.emplace(c.name, run_reference(p.structure, p.drive, random_pulses(c.mesh, 7), c.steps)).first;
  }
  return it->second;
}

/// Passes when `solver`, reset to the case's random pulses and run for its steps in two calls,
/// matches the reference in pulses, probe and energy within the tolerance of `storage`.
inline ::testing::AssertionResult matches_reference(Solver& solver, const Case& c, Storage storage) {
  solver.reset(random_pulses(c.mesh, 7));
  solver.run(c.first);
  solver.run(c.steps - c.first);
  const std::vector<float> pulses = solver.pulses(), probe = solver.probe();
  if (pulses.size() != static_cast<std::size_t>(kPorts * c.mesh.nodes()) ||
      probe.size() != static_cast<std::size_t>(kProbeValues * c.steps))
    return ::testing::AssertionFailure() << c.name << ": " << pulses.size() << " pulses, " << probe.size() << " probe values";
  const RunComparison r = compare_run(pulses, probe, reference_of(c), tolerance(storage, c.steps));
  const Verification v = r.all();
  const std::string text = c.name + ": pulses " + r.pulses.summary() + "; probe " + r.probe.summary() + "; energy " +
                           r.energy.summary();
  if (v.pass) return ::testing::AssertionSuccess() << text;
  return ::testing::AssertionFailure() << text;
}

}  // namespace gpgpu::tlm::checks
