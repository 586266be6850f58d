#include "gpgpu/tlm/compare.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gpgpu::tlm {

Verification RunComparison::all() const {
  const std::array parts{pulses, probe, energy};
  return all_of(parts);
}

RunComparison compare_run(std::span<const float> pulses, std::span<const float> probe, const ReferenceRun& ref,
                          double tolerance) {
  if (probe.size() != ref.result.probe.size())
    throw std::logic_error("compare_run: the probe has " + std::to_string(probe.size()) + " values, the reference " +
                           std::to_string(ref.result.probe.size()));
  RunComparison c;
  c.pulses = compare_normwise(pulses, ref.result.pulses, tolerance);

  Verification& p = c.probe;
  p.checked = true;
  p.tolerance = tolerance;
  double worst = 0, scale = 0;
  for (double e : ref.energy) scale = std::max(scale, std::sqrt(e));
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
  p.pass = p.non_finite == 0 && p.rel_max <= tolerance;
  if (p.non_finite > 0) p.rel_l2 = p.rel_max = std::numeric_limits<double>::quiet_NaN();

  Verification& e = c.energy;
  e.checked = true;
  e.tolerance = 2 * tolerance + tolerance * tolerance;
  const double got = gpgpu::tlm::energy(pulses), want = ref.energy.back();
  e.rel_l2 = e.rel_max = want > 0 ? std::abs(got / want - 1.0) : std::abs(got);
  e.non_finite = std::isfinite(got) ? 0 : 1;
  e.pass = e.non_finite == 0 && e.rel_max <= e.tolerance;
  if (e.non_finite > 0) e.rel_l2 = e.rel_max = std::numeric_limits<double>::quiet_NaN();
  return c;
}

}  // namespace gpgpu::tlm
