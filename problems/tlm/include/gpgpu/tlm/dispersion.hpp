/// @file dispersion.hpp
/// @brief How fast waves travel on the SCN mesh: the dispersion relation, computed from the node's
/// scattering matrix and its port table, and the bound the chapter states.
///
/// A plane wave V(n) = v·e^{i k·r_n} on the infinite mesh is an eigenvector of one step, scatter then
/// connect: M(k) = C(k)·S, where C(k) sends the pulse reflected from port p to the opposite port of
/// the neighbour across p's face with the phase e^{−i k·d_p}. M(k) is unitary; its eigenvalues
/// e^{±iωΔt} give the frequencies the mesh lets a wave of wave vector k have. The physical branch is
/// the one next to ω = c|k|; the others are the mesh's spurious and static solutions. The
/// eigenvalues of the Hermitian (M + M^H)/2 are cos ωΔt; cyclic Jacobi rotations on its real 24 x 24
/// form find them (no eigen-solver library needed for a 12 x 12 problem).
///
/// What it gives (tests/test_dispersion.cpp): along an axis ω = c|k| exactly; in every other
/// direction the wave is slow, at most along the body diagonal, by at most 0.6 % · (10Δl/λ)² for
/// λ ≥ 8Δl (0.57 % at λ = 10Δl, 0.14 % at 20Δl), and never fast.
#pragma once
#include <array>

namespace gpgpu::tlm {

/// Johns' 12 x 12 scattering matrix S in this port numbering, from scatter() applied to the unit
/// pulses: S[r][c] is the pulse reflected from port r for a unit pulse incident on port c.
std::array<std::array<double, 12>, 12> scattering_matrix();

/// The port table the dispersion uses: face axis, side and opposite port of each port (scn.hpp's
/// by default; a test passes a wrong one to show that the physics notices).
struct PortGeometry {
  std::array<int, 12> axis, side, opposite;
};
PortGeometry scn_port_geometry();

/// ω·Δt of the physical branch for the wave vector (kx, ky, kz)·Δl (radians per cell): the
/// eigenphase of M(k) nearest to c|k|Δt = |k|Δl/2.
double phase_per_step(double kx_dl, double ky_dl, double kz_dl, const PortGeometry& g = scn_port_geometry());

/// The stated bound on the slow-down: 0.006·(10Δl/λ)², valid for λ ≥ 8Δl.
[[nodiscard]] constexpr double dispersion_bound(double dl_over_lambda) {
  return 0.006 * (10.0 * dl_over_lambda) * (10.0 * dl_over_lambda);
}
/// The shortest wavelength the bound covers, in cells.
inline constexpr double kMinCellsPerWavelength = 8.0;

}  // namespace gpgpu::tlm
