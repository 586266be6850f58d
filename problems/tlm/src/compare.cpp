#include "gpgpu/tlm/compare.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "gpgpu/table.hpp"

namespace gpgpu::tlm {
namespace {

// The tolerance relative to a reference of size `size`: t + F/size (absolute, F, for a zero one,
// which compare_normwise and the checks below compare absolutely).
double relative_to(const Tolerance& t, double size) { return size > 0 ? t.relative + t.absolute / size : t.absolute; }

}  // namespace

Verification RunComparison::all() const {
  const std::array parts{pulses, probe, energy};
  Verification v = all_of(parts);
  // Within the floor a relative error of 1 may pass against a relative tolerance of millions: say
  // what was compared instead, where it decided the verdict (a pass, or the pulses' 2-norm failing).
  if (within_floor && v.non_finite == 0 && (v.pass || error_volts > allowed_volts))
    v.basis = format_cell("abs. error %.1e V", error_volts) + (v.pass ? " <= " : " > ") +
              format_cell("%.1e V allowed", allowed_volts) + " (the field is within half storage's floor" +
              (v.pass ? ": not judged)" : ")");
  return v;
}

RunComparison compare_run(std::span<const float> pulses, std::span<const float> probe, const ReferenceRun& ref,
                          const Tolerance& tolerance) {
  if (probe.size() != ref.result.probe.size())
    throw std::logic_error("compare_run: the probe has " + std::to_string(probe.size()) + " values, the reference " +
                           std::to_string(ref.result.probe.size()));
  RunComparison c;
  const double norm = std::sqrt(ref.energy.back());
  double largest = 0;
  for (double r : ref.result.pulses) largest = std::max(largest, std::abs(r));
  // compare_normwise holds both norms to the 2-norm's tolerance; the max-norm's own is t + F/max|r|.
  Verification& v = c.pulses;
  v = compare_normwise(pulses, ref.result.pulses, relative_to(tolerance, norm));
  v.pass = v.non_finite == 0 && v.rel_l2 <= v.tolerance && v.rel_max <= relative_to(tolerance, largest);

  Verification& p = c.probe;
  p.checked = true;
  double worst = 0, scale = 0;
  for (double e : ref.energy) scale = std::max(scale, std::sqrt(e));
  p.tolerance = relative_to(tolerance, scale);
  for (std::size_t k = 0; k < probe.size(); ++k) {
    const double x = probe[k];
    if (!std::isfinite(x)) {
      if (p.non_finite++ == 0) p.worst_index = static_cast<std::int64_t>(k);
      continue;
    }
    const double d = std::abs(x - ref.result.probe[k]);
    if (d > worst) worst = d, p.worst_index = static_cast<std::int64_t>(k);
  }
  p.rel_l2 = p.rel_max = scale > 0 ? worst / scale : worst;
  p.pass = p.non_finite == 0 && p.rel_max <= p.tolerance;
  if (p.non_finite > 0) p.rel_l2 = p.rel_max = std::numeric_limits<double>::quiet_NaN();

  Verification& e = c.energy;
  e.checked = true;
  const double got = gpgpu::tlm::energy(pulses), want = ref.energy.back();
  const double d = tolerance.relative * norm + tolerance.absolute;  // the pulses' largest 2-norm error
  const double allowed = 2 * norm * d + d * d;
  e.tolerance = want > 0 ? allowed / want : allowed;
  e.rel_l2 = e.rel_max = want > 0 ? std::abs(got / want - 1.0) : std::abs(got);
  e.non_finite = std::isfinite(got) ? 0 : 1;
  e.pass = e.non_finite == 0 && e.rel_max <= e.tolerance;
  if (e.non_finite > 0) e.rel_l2 = e.rel_max = std::numeric_limits<double>::quiet_NaN();

  c.within_floor = below_floor(ref, tolerance);
  if (c.within_floor) {
    double e2 = 0;
    for (std::size_t k = 0; k < pulses.size(); ++k) {
      const double x = pulses[k] - ref.result.pulses[k];
      e2 += x * x;
    }
    c.error_volts = std::sqrt(e2);
    c.allowed_volts = d;
  }
  return c;
}

bool below_floor(const ReferenceRun& reference, const Tolerance& tolerance) {
  return tolerance.absolute > 0 && std::sqrt(reference.energy.back()) <= tolerance.absolute;
}

}  // namespace gpgpu::tlm
