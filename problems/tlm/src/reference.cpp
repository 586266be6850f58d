#include "gpgpu/tlm/reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace gpgpu::tlm {
namespace {

// Below this many nodes a step is a few microseconds of work: waking threads and meeting at a
// barrier would cost more than it saves (and much more on a machine whose cores are busy).
constexpr std::int64_t kParallelNodes = 1 << 15;

void require_pulses(std::size_t size, const Mesh& m, const char* what) {
  if (size != static_cast<std::size_t>(kPorts * m.nodes()))
    throw std::invalid_argument(std::string(what) + ": expected 12 pulses per node of mesh " + m.str());
}

}  // namespace

template <typename T>
void connect(const Structure& s, std::span<const T> reflected, std::span<T> incident) {
  const Mesh& m = s.mesh;
  require_pulses(reflected.size(), m, "connect");
  require_pulses(incident.size(), m, "connect");
  const Extent e = s.extent();
  const IrisTable irises = s.iris_table();
  const std::int64_t nodes = m.nodes();
  const std::int64_t step[3] = {1, m.nx, static_cast<std::int64_t>(m.nx) * m.ny};
#pragma omp parallel for collapse(2) schedule(static) if (nodes >= kParallelNodes)
  for (int k = 0; k < m.nz; ++k)
    for (int j = 0; j < m.ny; ++j)
      for (int i = 0; i < m.nx; ++i) {
        const std::int64_t node = m.index(i, j, k);
        for (int p = 0; p < kPorts; ++p) {
          const int axis = port_axis(p), side = port_side(p);
          // The pulse now arriving at port p left the neighbour across p's face from the opposite
          // port, or, at a wall, left port p itself and came back inverted.
          incident[p * nodes + node] = is_wall(e, irises, i, j, k, axis, side)
                                           ? kWallReflection * reflected[p * nodes + node]
                                           : reflected[opposite_port(p) * nodes + node + side * step[axis]];
        }
      }
}

template void connect<float>(const Structure&, std::span<const float>, std::span<float>);
template void connect<double>(const Structure&, std::span<const double>, std::span<double>);

namespace {

// Σ v² with Neumaier's compensated summation in each thread's contiguous chunk, the chunks'
// (sum, compensation) pairs combined the same way: the sum's own error stays below 2u·Σv² however
// many pulses there are, so the energy check can blame any larger drift on the run, not on the
// addition (a plain sum of 10^6 terms may be off by 10^6·u).
struct Compensated {
  double sum = 0, carry = 0;
  void add(double x) {
    const double t = sum + x;
    carry += std::abs(sum) >= std::abs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  [[nodiscard]] double value() const { return sum + carry; }
};

template <typename T>
double sum_of_squares(std::span<const T> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  std::vector<Compensated> parts;
#pragma omp parallel if (n >= kPorts * kParallelNodes)
  {
    int id = 0, count = 1;
#ifdef _OPENMP
    id = omp_get_thread_num();
    count = omp_get_num_threads();
#endif
#pragma omp single
    parts.resize(static_cast<std::size_t>(count));
    const std::int64_t chunk = (n + count - 1) / count;
    Compensated c;
    for (std::int64_t k = id * chunk; k < std::min(n, (id + 1) * chunk); ++k) {
      const double x = static_cast<double>(v[static_cast<std::size_t>(k)]);
      c.add(x * x);
    }
    parts[static_cast<std::size_t>(id)] = c;
  }
  Compensated total;
  for (const Compensated& c : parts) total.add(c.sum), total.add(c.carry);
  return total.value();
}

}  // namespace

double energy(std::span<const double> pulses) { return sum_of_squares(pulses); }
double energy(std::span<const float> pulses) { return sum_of_squares(pulses); }

ReferenceRun run_reference(const Structure& s, const Drive& d, std::span<const float> initial, int steps,
                           const ProgressCallback& progress) {
  const Mesh& m = s.mesh;
  require_pulses(initial.size(), m, "run_reference");
  const std::int64_t nodes = m.nodes();
  std::vector<double> v(initial.begin(), initial.end()), r(v.size());
  ReferenceRun run;
  run.result.probe.reserve(static_cast<std::size_t>(kProbeValues) * steps);
  run.energy.reserve(static_cast<std::size_t>(steps) + 1);
  const std::int64_t source = m.index(d.source.i, d.source.j, d.source.k);
  const std::int64_t probe = m.index(d.probe.i, d.probe.j, d.probe.k);
  for (int n = 0; n < steps; ++n) {
    run.energy.push_back(energy(v));
    double at[kPorts];
    for (int p = 0; p < kPorts; ++p) at[p] = v[p * nodes + source];
    inject(at, d.source.polarisation, d.value(n));
    for (int p = 0; p < kPorts; ++p) v[p * nodes + source] = at[p];
    for (int p = 0; p < kPorts; ++p) at[p] = v[p * nodes + probe];
    const NodeFields<double> f = node_fields(at);
    for (double x : {f.vx, f.vy, f.vz, f.ix, f.iy, f.iz}) run.result.probe.push_back(x);
#pragma omp parallel for schedule(static) if (nodes >= kParallelNodes)
    for (std::int64_t node = 0; node < nodes; ++node) {
      double pulses[kPorts];
      for (int p = 0; p < kPorts; ++p) pulses[p] = v[p * nodes + node];
      scatter(pulses);
      for (int p = 0; p < kPorts; ++p) r[p * nodes + node] = pulses[p];
    }
    connect<double>(s, r, v);
    if (progress) progress(n + 1, steps);
  }
  run.energy.push_back(energy(v));
  run.result.pulses = std::move(v);
  return run;
}

double tolerance(Storage storage, int steps) { return tolerance(storage, steps, Mesh{1, 1, 1}).relative; }

Tolerance tolerance(Storage storage, int steps, const Mesh& mesh) {
  constexpr double u = std::numeric_limits<float>::epsilon() / 2;  // 2^-24
  const double n = static_cast<double>(steps) + 1.0;
  const double fp32 = 43.0 * u * n;
  if (storage == Storage::f32) return {fp32, 0.0};
  constexpr double u_half = 1.0 / 2048.0;            // 2^-11
  constexpr double smallest_normal = 1.0 / 16384.0;  // 2^-14, half's
  const double walk = 3.0 * u_half * std::sqrt(n);
  const double pulses = static_cast<double>(kPorts) * static_cast<double>(mesh.nodes());
  return {walk + fp32, walk * smallest_normal * std::sqrt(pulses)};
}

}  // namespace gpgpu::tlm
