#include "gpgpu/tlm/physics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include <nlohmann/json.hpp>

#include "gpgpu/tlm/dispersion.hpp"
#include "gpgpu/tlm/spectrum.hpp"

namespace gpgpu::tlm {
namespace {

std::string fmt(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

// A mode of the closed box: its wave numbers in units of π/(cells), its frequencies, and how
// strongly the source and the probe couple to it.
struct BoxMode {
  Resonance line;
  double coupling_source, coupling_probe;
};

BoxMode box_mode(const Structure& s, const Drive& d, const char* kind, int m, int n, int p,
                 double (*shape)(const Point&, const Mesh&, int, int, int)) {
  const Mesh& mesh = s.mesh;
  const double a = mesh.nx * mesh.dl, b = mesh.ny * mesh.dl, c = mesh.nz * mesh.dl;
  BoxMode mode;
  Resonance& r = mode.line;
  r.mode = std::string(kind) + std::to_string(m) + std::to_string(n) + std::to_string(p);
  r.m = m, r.n = n, r.p = p;
  r.f_analytic = 0.5 * kSpeedOfLight * std::sqrt((m / a) * (m / a) + (n / b) * (n / b) + (p / c) * (p / c));
  const double pi = std::numbers::pi;
  r.f_discrete = phase_per_step(m * pi / mesh.nx, n * pi / mesh.ny, p * pi / mesh.nz) / (2.0 * pi * mesh.dt());
  r.bound = dispersion_bound(mesh.dl * r.f_analytic / kSpeedOfLight);
  mode.coupling_source = shape(d.source, mesh, m, n, p);
  mode.coupling_probe = shape(d.probe, mesh, m, n, p);
  return mode;
}

// sin(qπ(i + ½)/cells) and cos(...): a standing wave sampled at the node centres.
double sine(int q, int i, int cells) { return std::sin(q * std::numbers::pi * (i + 0.5) / cells); }
double cosine(int q, int i, int cells) { return std::cos(q * std::numbers::pi * (i + 0.5) / cells); }

// Ez of TM_mnp: sin(mπx/a) sin(nπy/b) cos(pπz/d).
double tm_ez(const Point& at, const Mesh& m, int mx, int ny, int pz) {
  return sine(mx, at.i, m.nx) * sine(ny, at.j, m.ny) * cosine(pz, at.k, m.nz);
}
// Ey of TE_m0p: sin(mπx/a) sin(pπz/d).
double te_ey(const Point& at, const Mesh& m, int mx, int, int pz) {
  return sine(mx, at.i, m.nx) * sine(pz, at.k, m.nz);
}

// The lines among `modes` a probe of `steps` samples can resolve and that both ends couple to.
std::vector<Resonance> resolvable(const std::vector<BoxMode>& modes, const Mesh& mesh, int steps) {
  const double bin = bin_hz(static_cast<std::size_t>(std::max(steps, 1)), mesh.dt());
  std::vector<Resonance> lines;
  for (const BoxMode& mode : modes) {
    if (std::abs(mode.coupling_source) < 0.2 || std::abs(mode.coupling_probe) < 0.2) continue;
    const bool alone = std::none_of(modes.begin(), modes.end(), [&](const BoxMode& other) {
      return &other != &mode && std::abs(other.coupling_source * other.coupling_probe) > 1e-3 &&
             std::abs(other.line.f_discrete - mode.line.f_discrete) < kMinSeparationBins * bin;
    });
    if (!alone || mode.line.f_discrete < 2 * kMinSeparationBins * bin) continue;
    Resonance r = mode.line;
    r.delta = kPeakErrorBins * bin;
    lines.push_back(r);
  }
  std::sort(lines.begin(), lines.end(), [](const Resonance& x, const Resonance& y) { return x.f_discrete < y.f_discrete; });
  return lines;
}

// The highest frequency the stated dispersion bound covers: λ = 8Δl.
double f_max(const Mesh& m) { return kSpeedOfLight / (kMinCellsPerWavelength * m.dl); }

void measure(std::vector<Resonance>& lines, std::span<const double> signal, double dt) {
  const double bin = bin_hz(signal.size(), dt);
  for (Resonance& r : lines) {
    const Peak peak = find_peak(signal, dt, r.f_discrete - 2.0 * bin, r.f_discrete + 2.0 * bin);
    r.f_measured = peak.interior ? peak.f : 0.0;
    const bool on_mesh = std::abs(r.f_measured - r.f_discrete) <= r.delta;
    const bool analytic = r.f_measured >= r.f_analytic * (1.0 - r.bound) - r.delta && r.f_measured <= r.f_analytic + r.delta;
    r.pass = peak.interior && on_mesh && analytic;
  }
}

std::string worst_line(const std::vector<Resonance>& lines) {
  double worst = 0;
  const Resonance* at = nullptr;
  for (const Resonance& r : lines) {
    const double e = std::abs(r.f_measured / r.f_analytic - 1.0);
    if (at == nullptr || e > worst || !r.pass) worst = e, at = &r;
    if (!r.pass) break;
  }
  if (at == nullptr) return "";
  return at->mode + " at " + fmt("%.4f", at->f_measured / 1e9) + " GHz, analytic " + fmt("%.4f", at->f_analytic / 1e9) +
         " (" + fmt("%+.3f", 100.0 * (at->f_measured / at->f_analytic - 1.0)) + " %, bound -" +
         fmt("%.3f", 100.0 * at->bound) + " %), mesh " + fmt("%.4f", at->f_discrete / 1e9) + " GHz";
}

}  // namespace

PhysicsCheck check_energy(std::span<const double> e, int quiet_from) {
  PhysicsCheck c;
  c.name = "energy";
  if (quiet_from + 1 >= static_cast<int>(e.size())) {
    c.summary = "not checked: the source is still on at the last step";
    return c;
  }
  c.checked = true;
  constexpr double u = std::numeric_limits<double>::epsilon() / 2;
  constexpr double kSumError = 6.0;  // both sums (energy() is compensated: 3u each, squares included)
  const double e0 = e[static_cast<std::size_t>(quiet_from)];
  double drift = 0, allowed = 0;
  c.pass = true;
  for (std::size_t n = static_cast<std::size_t>(quiet_from); n < e.size(); ++n) {
    const double rel = e0 > 0 ? std::abs(e[n] / e0 - 1.0) : std::abs(e[n]);
    const double bound = 43.0 * u * static_cast<double>(n - static_cast<std::size_t>(quiet_from) + 1) + kSumError * u;
    if (rel > drift) drift = rel, allowed = bound;
    if (rel > bound) c.pass = false;
  }
  if (allowed == 0) allowed = (43.0 * static_cast<double>(e.size() - static_cast<std::size_t>(quiet_from)) + kSumError) * u;
  c.summary = "Σv² after the source (step " + std::to_string(quiet_from) + " to " + std::to_string(e.size() - 1) +
              "): largest relative drift " + fmt("%.1e", drift) + (c.pass ? " <= " : " > ") + fmt("%.1e", allowed) +
              " (43u per step + 6u for the sums, u = 2^-53)";
  return c;
}

std::vector<Resonance> expected_cavity_lines(const Structure& s, const Drive& d, int steps) {
  const Mesh& m = s.mesh;
  std::vector<BoxMode> modes;
  const double fmax = f_max(m);
  const double a = m.nx * m.dl, b = m.ny * m.dl, c = m.nz * m.dl;
  const int mmax = static_cast<int>(2 * a * fmax / kSpeedOfLight) + 1;
  const int nmax = static_cast<int>(2 * b * fmax / kSpeedOfLight) + 1;
  const int pmax = static_cast<int>(2 * c * fmax / kSpeedOfLight) + 1;
  // The mesh only slows a wave (f_discrete <= f_analytic, dispersion.hpp), and each mode's
  // f_discrete costs an eigensolve (a 256^3 box has about 10^5 modes below fmax). A line
  // needs f_discrete >= 2·kMinSeparationBins bins and f_analytic <= fmax: fewer than 192 steps
  // (2·6 bins above λ = 8Δl) leave none, and a mode below kMinSeparationBins bins is too low to be
  // a line or a line's neighbour (the 1% margins cover rounding in the eigensolve).
  const double bin = bin_hz(static_cast<std::size_t>(std::max(steps, 1)), m.dt());
  if (2 * kMinSeparationBins * bin > 1.01 * fmax) return {};
  for (int mx = 1; mx <= mmax; ++mx)
    for (int ny = 1; ny <= nmax; ++ny)
      for (int pz = 0; pz <= pmax; ++pz) {
        const double f = 0.5 * kSpeedOfLight * std::sqrt(std::pow(mx / a, 2) + std::pow(ny / b, 2) + std::pow(pz / c, 2));
        if (f <= 1.05 * fmax && f > 0.99 * kMinSeparationBins * bin) modes.push_back(box_mode(s, d, "TM", mx, ny, pz, tm_ez));
      }
  std::vector<Resonance> lines = resolvable(modes, m, steps);
  std::erase_if(lines, [&](const Resonance& r) { return r.f_analytic > fmax; });
  return lines;
}

PhysicsCheck check_resonances(const Structure& s, const Drive& d, std::span<const double> signal) {
  PhysicsCheck c;
  c.name = "resonances";
  c.lines = expected_cavity_lines(s, d, static_cast<int>(signal.size()));
  if (c.lines.empty()) {
    c.summary = "not checked: " + std::to_string(signal.size()) + " steps resolve no TM mode of this box";
    return c;
  }
  c.checked = true;
  measure(c.lines, signal, s.mesh.dt());
  c.pass = std::all_of(c.lines.begin(), c.lines.end(), [](const Resonance& r) { return r.pass; });
  const auto passed = std::count_if(c.lines.begin(), c.lines.end(), [](const Resonance& r) { return r.pass; });
  c.summary = std::to_string(passed) + " of " + std::to_string(c.lines.size()) + " TM lines where the mesh puts them; " +
              (c.pass ? "worst " : "first failure ") + worst_line(c.lines);
  return c;
}

namespace {

// The frequencies [lo, hi] where a mode of the box may show: between its analytic frequency slowed
// by twice the stated dispersion bound and the analytic frequency (the mesh is never fast), both
// widened by the window.
struct Window {
  double lo, hi;
};

std::vector<Window> mode_windows(const Mesh& m, double f_top, double widen) {
  const double a = m.nx * m.dl, b = m.ny * m.dl, c = m.nz * m.dl;
  const auto count = [&](double side) { return static_cast<int>(2 * side * f_top / kSpeedOfLight) + 1; };
  std::vector<Window> windows{{-widen, widen}};  // zero frequency: the static solutions
  for (int mx = 0; mx <= count(a); ++mx)
    for (int ny = 0; ny <= count(b); ++ny)
      for (int pz = 0; pz <= count(c); ++pz) {
        if ((mx > 0) + (ny > 0) + (pz > 0) < 2) continue;  // a standing wave needs two of them
        const double f = 0.5 * kSpeedOfLight * std::sqrt(std::pow(mx / a, 2) + std::pow(ny / b, 2) + std::pow(pz / c, 2));
        const double slow = 2.0 * dispersion_bound(m.dl * f / kSpeedOfLight);
        if (f * (1.0 - slow) - widen <= f_top) windows.push_back({f * (1.0 - slow) - widen, f + widen});
      }
  return windows;
}

}  // namespace

PhysicsCheck check_spurious_lines(const Structure& s, const Drive& d, std::span<const double> signal) {
  PhysicsCheck c;
  c.name = "spurious lines";
  const Mesh& m = s.mesh;
  if (expected_cavity_lines(s, d, static_cast<int>(signal.size())).empty()) {
    c.summary = "not checked: " + std::to_string(signal.size()) + " steps resolve no TM mode of this box";
    return c;
  }
  const double bin = bin_hz(signal.size(), m.dt()), top = f_max(m);
  const std::vector<Window> windows = mode_windows(m, top, kSpuriousWindowBins * bin);
  std::vector<double> grid;
  for (double f = 0; f <= top; f += 0.5 * bin) grid.push_back(f);
  const std::vector<double> mag = windowed_spectrum(signal, m.dt(), grid);
  double strongest = 0, worst = 0, at = 0;
  bool looked = false;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const auto in = [&](const Window& w) { return grid[k] >= w.lo && grid[k] <= w.hi; };
    if (std::any_of(windows.begin() + 1, windows.end(), in)) {
      strongest = std::max(strongest, mag[k]);
    } else if (!in(windows.front())) {
      if (!looked || mag[k] > worst) worst = mag[k], at = grid[k];
      looked = true;
    }
  }
  if (!looked || strongest == 0) {
    c.summary = "not checked: the windows around the box's modes cover every frequency up to λ = 8Δl";
    return c;
  }
  c.checked = true;
  c.pass = worst <= kSpuriousThreshold * strongest;
  c.summary = "largest content away from the box's modes and from zero frequency " + fmt("%.1e", worst / strongest) +
              " of the strongest line, at " + fmt("%.4f", at / 1e9) + " GHz (" + fmt("%.5f", at * m.dt()) +
              " cycles per step)" + (c.pass ? " <= " : " > ") + fmt("%.0e", kSpuriousThreshold) + " allowed";
  return c;
}

std::vector<Resonance> expected_guide_lines(const Structure& s, const Drive& d, int steps) {
  const Mesh& m = s.mesh;
  const double fc = kSpeedOfLight / (2.0 * m.nx * m.dl);
  const double fmax = std::min(1.5 * fc, f_max(m));
  std::vector<BoxMode> modes;
  for (int p = 1; p <= m.nz; ++p) {
    BoxMode mode = box_mode(s, d, "TE", 1, 0, p, te_ey);
    if (mode.line.f_analytic > fmax) break;
    modes.push_back(mode);
  }
  return resolvable(modes, m, steps);
}

PhysicsCheck check_cutoff(const Structure& s, const Drive& d, std::span<const double> signal) {
  PhysicsCheck c;
  c.name = "cut-off";
  c.lines = expected_guide_lines(s, d, static_cast<int>(signal.size()));
  if (c.lines.size() < 2) {
    c.summary = "not checked: " + std::to_string(signal.size()) + " steps resolve " + std::to_string(c.lines.size()) +
                " TE10p line(s) below 1.5 f_c; the fit needs two";
    return c;
  }
  c.checked = true;
  measure(c.lines, signal, s.mesh.dt());
  // Least squares of y = f² against x = p²: y = fc² + β x. The intercept is Σ w_i y_i with
  // w_i = 1/n − x̄ (x_i − x̄)/Sxx; each measured f_i may be off by δ_i + bound_i·f_i (slow only), so
  // fc² by at most Σ |w_i|·2 f_i (δ_i + bound_i f_i).
  const double n = static_cast<double>(c.lines.size());
  double xbar = 0, ybar = 0;
  for (const Resonance& r : c.lines) xbar += r.p * r.p / n, ybar += r.f_measured * r.f_measured / n;
  double sxx = 0, sxy = 0;
  for (const Resonance& r : c.lines) {
    const double x = r.p * r.p - xbar;
    sxx += x * x, sxy += x * (r.f_measured * r.f_measured - ybar);
  }
  const double fc2 = ybar - sxy / sxx * xbar;
  double allowance = 0;
  for (const Resonance& r : c.lines) {
    const double w = 1.0 / n - xbar * (r.p * r.p - xbar) / sxx;
    allowance += std::abs(w) * 2.0 * r.f_analytic * (r.delta + r.bound * r.f_analytic);
  }
  const double fc = kSpeedOfLight / (2.0 * s.mesh.nx * s.mesh.dl);
  const double fc_measured = fc2 > 0 ? std::sqrt(fc2) : 0.0;
  const double allowed = allowance / (2.0 * fc);
  const bool lines_pass = std::all_of(c.lines.begin(), c.lines.end(), [](const Resonance& r) { return r.pass; });
  c.pass = lines_pass && std::abs(fc_measured - fc) <= allowed;
  c.summary = "TE10 cut-off from " + std::to_string(c.lines.size()) + " TE10p lines: " + fmt("%.4f", fc_measured / 1e9) +
              " GHz, c/2a = " + fmt("%.4f", fc / 1e9) + " GHz (" + fmt("%+.3f", 100.0 * (fc_measured / fc - 1.0)) +
              " %, allowed " + fmt("%.3f", 100.0 * allowed / fc) + " %)" +
              (lines_pass ? "" : "; a line is off: " + worst_line(c.lines));
  return c;
}

std::vector<double> probe_component(std::span<const double> probe, int component) {
  std::vector<double> out;
  out.reserve(probe.size() / kProbeValues);
  for (std::size_t n = static_cast<std::size_t>(component); n < probe.size(); n += kProbeValues) out.push_back(probe[n]);
  return out;
}

void to_json(nlohmann::json& j, const Resonance& r) {
  j = {{"mode", r.mode},           {"f_analytic_hz", r.f_analytic}, {"f_discrete_hz", r.f_discrete},
       {"f_measured_hz", r.f_measured}, {"dispersion_bound", r.bound}, {"delta_hz", r.delta}, {"pass", r.pass}};
}

void to_json(nlohmann::json& j, const PhysicsCheck& c) {
  j = {{"name", c.name}, {"checked", c.checked}, {"pass", c.pass}, {"summary", c.summary}, {"lines", c.lines}};
}

}  // namespace gpgpu::tlm
