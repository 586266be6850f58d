// The reference against physics: energy conserved to rounding over thousands of steps in a closed
// lossless box, the box's TM resonances and the WR-28 guide's TE10 cut-off where theory and the
// mesh's dispersion put them; and each check fails when the physics is not what it expects.
#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "gpgpu/tlm/options.hpp"
#include "gpgpu/tlm/physics.hpp"
#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/spectrum.hpp"

namespace gpgpu::tlm {
namespace {

// The reference run of `scenario` on `mesh` from rest, with the scenario's source and probe.
struct Simulation {
  Structure structure;
  Drive drive;
  ReferenceRun reference;
  [[nodiscard]] std::vector<double> signal() const { return probe_component(reference.result.probe, drive.probe.polarisation); }
};
Simulation simulate(Scenario scenario, const Mesh& mesh, int steps) {
  Simulation r{make_structure(scenario, mesh), make_drive(scenario, mesh), {}};
  const std::vector<float> rest(static_cast<std::size_t>(kPorts * mesh.nodes()), 0.0f);
  r.reference = run_reference(r.structure, r.drive, rest, steps);
  return r;
}

const Simulation& quick_cavity() {
  static const Simulation r = simulate(Scenario::cavity, quick_mesh(Scenario::cavity), quick_steps(Scenario::cavity));
  return r;
}

TEST(Physics, EnergyIsConservedToRoundingInAClosedBox) {
  const Simulation& r = quick_cavity();
  const PhysicsCheck c = check_energy(r.reference.energy, r.drive.quiet_from());
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.pass) << c.summary;
  EXPECT_GT(r.reference.energy.back(), 0.1) << "the source put energy in";
}

TEST(Physics, EnergyCheckFailsWhenEnergyLeaks) {
  std::vector<double> e(quick_cavity().reference.energy);
  e.back() *= 1.0 + 1e-9;  // a wall that absorbs one part in 10^9
  EXPECT_FALSE(check_energy(e, quick_cavity().drive.quiet_from()).pass);
}

TEST(Physics, TheBoxRingsAtItsResonances) {
  const Simulation& r = quick_cavity();
  const PhysicsCheck c = check_resonances(r.structure, r.drive, r.signal());
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.pass) << c.summary;
  EXPECT_GE(c.lines.size(), 5u);
  for (const Resonance& line : c.lines) {
    // The mesh's own dispersion relation predicts each peak to a small fraction of a bin.
    EXPECT_NEAR(line.f_measured, line.f_discrete, line.delta) << line.mode;
    EXPECT_LE(line.f_measured, line.f_analytic) << line.mode << ": the mesh is never fast";
  }
}

TEST(Physics, ResonanceCheckFailsForABoxOfAnotherSize) {
  // The probe of a box one cell longer in x, checked against the lines of the quick box.
  Mesh longer = quick_mesh(Scenario::cavity);
  longer.nx += 1;
  const Simulation r = simulate(Scenario::cavity, longer, quick_steps(Scenario::cavity));
  const Simulation& quick = quick_cavity();
  EXPECT_FALSE(check_resonances(quick.structure, quick.drive, r.signal()).pass);
}

TEST(Physics, TheBoxHasNoLinesButItsOwn) {
  const Simulation& r = quick_cavity();
  const PhysicsCheck c = check_spurious_lines(r.structure, r.drive, r.signal());
  EXPECT_TRUE(c.checked) << c.summary;
  EXPECT_TRUE(c.pass) << c.summary;
}

// The quick box's probe with a sine of `ratio` times its strongest line added at `cycles` per step.
std::vector<double> with_line(double cycles, double ratio) {
  const Simulation& r = quick_cavity();
  std::vector<double> x = r.signal();
  const double dt = r.structure.mesh.dt();
  double strongest = 0;
  for (const Resonance& line : check_resonances(r.structure, r.drive, x).lines)
    strongest = std::max(strongest, windowed_dft_magnitude(x, dt, line.f_measured));
  // A sine of amplitude A shows A·Σw/2 = A·N/4 under the Hann window.
  const double amplitude = 4.0 * ratio * strongest / static_cast<double>(x.size());
  for (std::size_t n = 0; n < x.size(); ++n) x[n] += amplitude * std::sin(2.0 * std::numbers::pi * cycles * static_cast<double>(n) + 0.3);
  return x;
}

TEST(Physics, SpuriousLineCheckFailsForALineThatIsNotTheBoxs) {
  // Below the box's lowest mode (0.030 cycles per step), where a closed box has nothing but the
  // static field (at 3000 steps no gap between two modes is wider than the windows): a line at
  // 3e-3 of the strongest fails, one at
  // 3e-4 (under the threshold, above the window's leakage) passes.
  const Simulation& r = quick_cavity();
  const std::vector<Resonance> lines = check_resonances(r.structure, r.drive, r.signal()).lines;
  ASSERT_FALSE(lines.empty());
  const double lowest = lines.front().f_discrete * r.structure.mesh.dt();
  EXPECT_NEAR(lowest, 0.0298, 0.0005);
  for (double cycles : {0.2 * lowest, 0.4 * lowest, 0.7 * lowest}) {
    EXPECT_FALSE(check_spurious_lines(r.structure, r.drive, with_line(cycles, 3e-3)).pass) << cycles;
    const PhysicsCheck weak = check_spurious_lines(r.structure, r.drive, with_line(cycles, 3e-4));
    EXPECT_TRUE(weak.pass) << cycles << ": " << weak.summary;
  }
}

TEST(Physics, SpuriousLineCheckFailsForADriftingStaticField) {
  // What half storage does at length (README, "What half storage does to the spectrum"): the
  // static field at the probe wanders as a random walk. A walk whose steps are 1e-3 of the probe's
  // largest value fails; the reference alone passes (above).
  const Simulation& r = quick_cavity();
  std::vector<double> x = r.signal();
  double largest = 0;
  for (double v : x) largest = std::max(largest, std::abs(v));
  std::mt19937_64 random(7);
  std::normal_distribution<double> step(0.0, 1e-3 * largest);
  double walk = 0;
  for (double& v : x) v += (walk += step(random));
  EXPECT_FALSE(check_spurious_lines(r.structure, r.drive, x).pass);
}

TEST(Physics, TheGuideCutsOffAtC2a) {
  const Simulation r = simulate(Scenario::waveguide, quick_mesh(Scenario::waveguide), quick_steps(Scenario::waveguide));
  const PhysicsCheck c = check_cutoff(r.structure, r.drive, r.signal());
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.pass) << c.summary;
  EXPECT_NEAR(kWr28CutoffHz, 21.08e9, 0.005e9);
  EXPECT_TRUE(check_energy(r.reference.energy, r.drive.quiet_from()).pass);
}

TEST(Physics, CutoffCheckFailsForAWiderGuide) {
  // A box 11 cells wide (its TE10 cut-off 9 % lower) checked as the 10-cell WR-28 guide.
  Mesh guide = quick_mesh(Scenario::waveguide);
  Mesh wider = guide;
  wider.nx += 1;
  const Structure as_box = make_structure(Scenario::cavity, wider);
  Drive d = make_drive(Scenario::waveguide, guide);
  const std::vector<float> rest(static_cast<std::size_t>(kPorts * wider.nodes()), 0.0f);
  const ReferenceRun run = run_reference(as_box, d, rest, quick_steps(Scenario::waveguide));
  EXPECT_FALSE(check_cutoff(make_structure(Scenario::waveguide, guide), d,
                            probe_component(run.result.probe, d.probe.polarisation)).pass);
}

TEST(Physics, AShortRunChecksNoLines) {
  const Simulation& r = quick_cavity();
  const std::vector<double> signal = r.signal();
  const PhysicsCheck c = check_resonances(r.structure, r.drive, std::span(signal).first(200));
  EXPECT_FALSE(c.checked);
  EXPECT_FALSE(check_spurious_lines(r.structure, r.drive, std::span(signal).first(200)).checked);
}

TEST(Spectrum, APeakIsFoundToAFractionOfABin) {
  // Two sines 4 bins apart, the second 0.3 of the first: the Hann-window search finds each within
  // 0.05 bins (the chapter allows 0.1 and wants 6 bins between lines).
  constexpr int n = 2000;
  constexpr double dt = 1.0, f1 = 0.1037, f2 = f1 + 4.0 / n;
  std::vector<double> x(n);
  for (int k = 0; k < n; ++k) x[k] = std::sin(2 * std::numbers::pi * f1 * k) + 0.3 * std::cos(2 * std::numbers::pi * f2 * k + 1);
  const double bin = bin_hz(n, dt);
  const Peak p1 = find_peak(x, dt, f1 - 2 * bin, f1 + 2 * bin), p2 = find_peak(x, dt, f2 - 2 * bin, f2 + 2 * bin);
  EXPECT_TRUE(p1.interior);
  EXPECT_TRUE(p2.interior);
  EXPECT_NEAR(p1.f, f1, 0.05 * bin);
  EXPECT_NEAR(p2.f, f2, 0.05 * bin);
}

TEST(Spectrum, TheFlankOfALineIsNoPeak) {
  // Inside the Hann main lobe (±2 bins) the spectrum only rises towards the line: its maximum on
  // an interval short of the line is the interval's end.
  constexpr int n = 1000;
  constexpr double f = 0.2;
  std::vector<double> x(n);
  for (int k = 0; k < n; ++k) x[k] = std::sin(2 * std::numbers::pi * f * k);
  const double bin = bin_hz(n, 1.0);
  EXPECT_FALSE(find_peak(x, 1.0, f - 1.8 * bin, f - 0.3 * bin).interior);
  EXPECT_TRUE(find_peak(x, 1.0, f - 1.8 * bin, f + 1.8 * bin).interior);
}

}  // namespace
}  // namespace gpgpu::tlm
