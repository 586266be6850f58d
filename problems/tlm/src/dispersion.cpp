#include "gpgpu/tlm/dispersion.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "gpgpu/tlm/scn.hpp"

namespace gpgpu::tlm {

std::array<std::array<double, 12>, 12> scattering_matrix() {
  std::array<std::array<double, 12>, 12> s{};
  for (int c = 0; c < kPorts; ++c) {
    double v[kPorts] = {};
    v[c] = 1.0;
    scatter(v);
    for (int r = 0; r < kPorts; ++r) s[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = v[r];
  }
  return s;
}

PortGeometry scn_port_geometry() {
  PortGeometry g{};
  for (int p = 0; p < kPorts; ++p) {
    const auto q = static_cast<std::size_t>(p);
    g.axis[q] = port_axis(p);
    g.side[q] = port_side(p);
    g.opposite[q] = opposite_port(p);
  }
  return g;
}

namespace {

// The eigenvalues of the real symmetric n x n matrix `a` (row-major) by cyclic Jacobi rotations:
// each rotation zeroes one off-diagonal pair; sweeps repeat until the off-diagonal part vanishes.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n) {
  auto at = [&](int r, int c) -> double& { return a[static_cast<std::size_t>(r * n + c)]; };
  for (int sweep = 0; sweep < 64; ++sweep) {
    double off = 0;
    for (int r = 0; r < n; ++r)
      for (int c = r + 1; c < n; ++c) off += at(r, c) * at(r, c);
    if (off < 1e-28) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (std::abs(at(p, q)) < 1e-300) continue;
        const double theta = (at(q, q) - at(p, p)) / (2.0 * at(p, q));
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double kp = at(k, p), kq = at(k, q);
          at(k, p) = c * kp - s * kq, at(k, q) = s * kp + c * kq;
        }
        for (int k = 0; k < n; ++k) {
          const double pk = at(p, k), qk = at(q, k);
          at(p, k) = c * pk - s * qk, at(q, k) = s * pk + c * qk;
        }
      }
  }
  std::vector<double> e(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) e[static_cast<std::size_t>(k)] = at(k, k);
  return e;
}

}  // namespace

double phase_per_step(double kx_dl, double ky_dl, double kz_dl, const PortGeometry& g) {
  using cplx = std::complex<double>;
  const auto s = scattering_matrix();
  const double k[3] = {kx_dl, ky_dl, kz_dl};
  // M = C(k)·S: the pulse reflected from port q of the node at r arrives at the opposite port of
  // the node at r + d_q; for the plane wave e^{ik·r} that is a phase e^{-ik·d_q} at the receiver.
  cplx m[12][12];
  for (int q = 0; q < kPorts; ++q) {
    const auto qi = static_cast<std::size_t>(q);
    const cplx phase = std::polar(1.0, -k[g.axis[qi]] * g.side[qi]);
    for (int c = 0; c < kPorts; ++c) m[g.opposite[qi]][c] = phase * s[qi][static_cast<std::size_t>(c)];
  }
  // H = (M + M^H)/2 has the eigenvalues cos ωΔt; as a real symmetric matrix [[Re, -Im], [Im, Re]]
  // each of them appears twice.
  std::vector<double> h(24 * 24);
  for (int r = 0; r < kPorts; ++r)
    for (int c = 0; c < kPorts; ++c) {
      const cplx e = 0.5 * (m[r][c] + std::conj(m[c][r]));
      h[static_cast<std::size_t>(r * 24 + c)] = h[static_cast<std::size_t>((r + 12) * 24 + c + 12)] = e.real();
      h[static_cast<std::size_t>(r * 24 + c + 12)] = -e.imag();
      h[static_cast<std::size_t>((r + 12) * 24 + c)] = e.imag();
    }
  const double continuous = 0.5 * std::sqrt(kx_dl * kx_dl + ky_dl * ky_dl + kz_dl * kz_dl);
  double best = 0;
  for (const double c : symmetric_eigenvalues(std::move(h), 24)) {
    const double phase = std::acos(std::clamp(c, -1.0, 1.0));
    if (std::abs(phase - continuous) < std::abs(best - continuous)) best = phase;
  }
  return best;
}

}  // namespace gpgpu::tlm
