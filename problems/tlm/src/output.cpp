#include "gpgpu/tlm/output.hpp"

#include <algorithm>
#include <cmath>

#include "gpgpu/png.hpp"
#include "gpgpu/tlm/spectrum.hpp"

namespace gpgpu::tlm {
namespace {

template <typename T>
std::vector<double> slice_of(const Mesh& m, std::span<const T> pulses, int polarisation, int k) {
  std::vector<double> out(static_cast<std::size_t>(m.nx) * static_cast<std::size_t>(m.ny));
  const std::int64_t nodes = m.nodes();
  for (int j = 0; j < m.ny; ++j)
    for (int i = 0; i < m.nx; ++i) {
      double v[kPorts];
      for (int p = 0; p < kPorts; ++p) v[p] = static_cast<double>(pulses[static_cast<std::size_t>(p * nodes + m.index(i, j, k))]);
      const NodeFields<double> f = node_fields(v);
      out[static_cast<std::size_t>(j) * static_cast<std::size_t>(m.nx) + static_cast<std::size_t>(i)] =
          polarisation == 0 ? f.vx : polarisation == 1 ? f.vy : f.vz;
    }
  return out;
}

// The spectrum of the probe's source component up to λ = 4Δl: (frequency Hz, |X|) rows.
std::vector<double> spectrum_table(std::span<const double> signal, const Mesh& m) {
  constexpr int kPoints = 2048;
  const double f_top = kSpeedOfLight / (4.0 * m.dl);
  std::vector<double> f(kPoints);
  for (int k = 0; k < kPoints; ++k) f[static_cast<std::size_t>(k)] = f_top * k / (kPoints - 1);
  const std::vector<double> mag = windowed_spectrum(signal, m.dt(), f);
  std::vector<double> table;
  for (int k = 0; k < kPoints; ++k) table.insert(table.end(), {f[static_cast<std::size_t>(k)], mag[static_cast<std::size_t>(k)]});
  return table;
}

std::uint8_t channel(double x) { return static_cast<std::uint8_t>(std::lround(255.0 * std::clamp(x, 0.0, 1.0))); }

}  // namespace

std::vector<double> field_slice(const Mesh& m, std::span<const double> p, int polarisation, int k) {
  return slice_of(m, p, polarisation, k);
}
std::vector<double> field_slice(const Mesh& m, std::span<const float> p, int polarisation, int k) {
  return slice_of(m, p, polarisation, k);
}

std::vector<std::uint8_t> colour_map(std::span<const double> slice, int nx, int ny, double scale, int pixels) {
  const int w = nx * pixels, h = ny * pixels;
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double v = slice[static_cast<std::size_t>(y / pixels) * static_cast<std::size_t>(nx) + static_cast<std::size_t>(x / pixels)];
      std::uint8_t* px = &rgba[(static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 4];
      if (std::isnan(v)) {
        px[0] = 255, px[1] = 0, px[2] = 255, px[3] = 255;
        continue;
      }
      const double t = scale > 0 ? std::clamp(v / scale, -1.0, 1.0) : 0.0;
      // White at zero; towards red (positive) or blue (negative) by taking the other channels away.
      px[0] = channel(1.0 - std::max(0.0, -t));
      px[1] = channel(1.0 - std::abs(t));
      px[2] = channel(1.0 - std::max(0.0, t));
      px[3] = 255;
    }
  return rgba;
}

double write_slice_png(const std::string& path, std::span<const double> slice, int nx, int ny) {
  double scale = 0;
  for (double v : slice)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  const int pixels = std::max(1, 256 / std::max(nx, ny) + (256 % std::max(nx, ny) != 0 ? 1 : 0));
  write_png(path, nx * pixels, ny * pixels, colour_map(slice, nx, ny, scale, pixels));
  return scale;
}

std::string write_dump(DumpFolder& dump, const Setup& setup, const ReferenceRun& reference,
                       const std::vector<PhysicsCheck>& physics,
                       const std::vector<std::pair<std::string, RunResult<float>>>& results) {
  const Mesh& m = setup.structure.mesh;
  const Point& source = setup.drive.source;
  const auto steps = static_cast<std::size_t>(setup.steps);
  const std::vector<std::size_t> plane{static_cast<std::size_t>(m.ny), static_cast<std::size_t>(m.nx)};
  if (!reference.result.pulses.empty()) {
    dump.write("reference_probe.npy", reference.result.probe, {steps, kProbeValues});
    dump.write("reference_energy.npy", reference.energy, {steps + 1});
    dump.write("reference_field.npy",
               field_slice(m, std::span<const double>(reference.result.pulses), source.polarisation, source.k), plane);
    const std::vector<double> spectrum =
        spectrum_table(probe_component(reference.result.probe, setup.drive.probe.polarisation), m);
    dump.write("spectrum.npy", spectrum, {spectrum.size() / 2, 2});
    std::vector<double> lines;
    for (const PhysicsCheck& c : physics)
      for (const Resonance& r : c.lines) lines.insert(lines.end(), {r.f_analytic, r.f_discrete, r.f_measured});
    dump.write("lines.npy", lines, {lines.size() / 3, 3});
  }
  for (const auto& [name, r] : results) {
    dump.write("probe_" + name + ".npy", r.probe, {steps, kProbeValues});
    dump.write("field_" + name + ".npy", field_slice(m, std::span<const float>(r.pulses), source.polarisation, source.k),
               plane);
  }
  return dump.path().string() + ": probes (steps x 6: Vx Vy Vz Z0Ix Z0Iy Z0Iz), the field V" + "xyz"[source.polarisation] +
         " on layer k = " + std::to_string(source.k) +
         " (ny x nx), the reference's energy per step, its spectrum (Hz, |X|) and lines (analytic, mesh, measured Hz)";
}

}  // namespace gpgpu::tlm
