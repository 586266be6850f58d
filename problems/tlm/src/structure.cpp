#include "gpgpu/tlm/structure.hpp"

#include <algorithm>
#include <cmath>

#include "gpgpu/errors.hpp"

namespace gpgpu::tlm {

std::string_view scenario_name(Scenario s) {
  switch (s) {
    case Scenario::cavity: return "cavity";
    case Scenario::waveguide: return "waveguide";
    case Scenario::filter: return "filter";
  }
  return "unknown";
}

Scenario parse_scenario(std::string_view name) {
  for (Scenario s : {Scenario::cavity, Scenario::waveguide, Scenario::filter})
    if (scenario_name(s) == name) return s;
  throw UsageError("--scenario must be cavity, waveguide or filter, got '" + std::string(name) + "'");
}

IrisTable Structure::iris_table() const {
  IrisTable t;
  t.count = static_cast<int>(std::min<std::size_t>(irises.size(), kMaxIrises));
  std::copy_n(irises.begin(), t.count, t.iris);
  return t;
}

std::vector<float> gaussian_waveform(const GaussianPulse& g) {
  std::vector<float> w(static_cast<std::size_t>(2 * g.delay));
  for (int n = 0; n < 2 * g.delay; ++n) {
    const double t = (n - g.delay) / g.width;
    w[static_cast<std::size_t>(n)] = static_cast<float>(g.amplitude * std::exp(-t * t));
  }
  return w;
}

Mesh default_mesh(Scenario s) {
  switch (s) {
    case Scenario::cavity: return {24, 18, 14, 1e-3};
    case Scenario::waveguide: return {16, 8, 48, kWr28B / 8};
    case Scenario::filter: return {32, 16, 293, kWr28B / 16};
  }
  return {};
}

namespace {

// A fraction of a dimension as a node index inside it.
int at(double fraction, int cells) { return std::clamp(static_cast<int>(fraction * cells), 0, cells - 1); }

// Cells in `metres`, at least one.
int cells(double metres, double dl) { return std::max(1, static_cast<int>(std::lround(metres / dl))); }

constexpr double kFilterCavity = 7.0e-3;  // metres, about λg/2 at 30 GHz in WR-28
constexpr double kFilterWindows[4] = {0.60, 0.45, 0.45, 0.60};

}  // namespace

std::vector<Iris> filter_irises(const Mesh& m) {
  const int cavity = cells(kFilterCavity, m.dl);
  const int guides = m.nz - 3 * cavity;
  if (guides < 2)
    throw UsageError("the filter's three cavities of " + std::to_string(cavity) + " cells need --nz of at least " +
                     std::to_string(3 * cavity + 2) + " with this cross-section, got " + std::to_string(m.nz));
  std::vector<Iris> irises;
  const int first = guides / 2;  // the input guide: layers 0 .. first-1
  for (int n = 0; n < 4; ++n) {
    const int width = std::max(1, static_cast<int>(std::lround(kFilterWindows[n] * m.nx)));
    const int x0 = (m.nx - width) / 2;
    irises.push_back({first + n * cavity, x0, x0 + width, 0, m.ny});
  }
  return irises;
}

Structure make_structure(Scenario s, const Mesh& mesh) {
  validate_mesh(mesh);
  Structure st{s, mesh, {}};
  if (s == Scenario::cavity) return st;
  if (mesh.nx != 2 * mesh.ny || std::abs(mesh.dl * mesh.ny - kWr28B) > 1e-9 * kWr28B)
    throw UsageError("the " + std::string(scenario_name(s)) + " is WR-28 (7.112 x 3.556 mm): it needs nx = 2 ny and " +
                     "Δl = 3.556 mm / ny (give --ny only)");
  if (s == Scenario::filter) st.irises = filter_irises(mesh);
  return st;
}

Drive make_drive(Scenario s, const Mesh& m) {
  Drive d;
  d.waveform = gaussian_waveform({});
  if (s == Scenario::cavity) {
    d.source = {at(0.31, m.nx), at(0.27, m.ny), at(0.41, m.nz), 2};
    d.probe = {at(0.63, m.nx), at(0.71, m.ny), at(0.17, m.nz), 2};
  } else if (s == Scenario::waveguide) {
    d.source = {at(0.5, m.nx), at(0.5, m.ny), at(0.23, m.nz), 1};
    d.probe = {at(0.37, m.nx), at(0.5, m.ny), at(0.61, m.nz), 1};
  } else {
    const std::vector<Iris> irises = filter_irises(m);
    d.source = {at(0.5, m.nx), at(0.5, m.ny), std::max(0, irises.front().k / 3), 1};
    d.probe = {at(0.37, m.nx), at(0.5, m.ny), std::min(m.nz - 1, (irises.back().k + 2 * m.nz) / 3), 1};
  }
  return d;
}

}  // namespace gpgpu::tlm
