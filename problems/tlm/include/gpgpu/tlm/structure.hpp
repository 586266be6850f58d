/// @file structure.hpp
/// @brief What the chapter simulates: a scenario (a closed PEC box, a WR-28 waveguide, an iris
/// filter in WR-28) on a mesh, the source that excites it and the probe that listens.
///
/// Every structure is closed: the mesh's outer faces are perfect electric conductors (the paper's
/// boundary reflection, sec. III, Fig. 4, with coefficient −1), and the filter adds irises inside.
/// Nothing absorbs, so the field energy (the sum of the squared pulses) is conserved once the source
/// has stopped; the chapter checks that it is, to rounding.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/tlm/mesh.hpp"
#include "gpgpu/tlm/scn.hpp"

namespace gpgpu::tlm {

enum class Scenario { cavity, waveguide, filter };

/// "cavity", "waveguide", "filter".
std::string_view scenario_name(Scenario s);
/// The inverse; throws UsageError for another name.
Scenario parse_scenario(std::string_view name);

/// WR-28 (Ka band, 26.5-40 GHz): the broad wall a and the narrow wall b, in metres.
inline constexpr double kWr28A = 7.112e-3;
inline constexpr double kWr28B = 3.556e-3;
/// The TE10 cut-off c / (2a) = 21.08 GHz.
inline constexpr double kWr28CutoffHz = kSpeedOfLight / (2.0 * kWr28A);

/// The mesh and where its walls are.
struct Structure {
  Scenario scenario = Scenario::cavity;
  Mesh mesh;
  std::vector<Iris> irises;  ///< the filter's; none for the box and the guide

  [[nodiscard]] Extent extent() const { return {mesh.nx, mesh.ny, mesh.nz}; }
  /// The irises as the kernels take them.
  [[nodiscard]] IrisTable iris_table() const;
  [[nodiscard]] bool wall(int i, int j, int k, int axis, int side) const {
    const IrisTable t = iris_table();
    return is_wall(extent(), t, i, j, k, axis, side);
  }
};

/// A node and a field component.
struct Point {
  int i = 0, j = 0, k = 0;
  int polarisation = 2;  ///< 0 = x, 1 = y, 2 = z
};

/// The source and the probe of a run.
///
/// The source is a Gaussian pulse in one electric field component at one node, a soft source
/// (scn.hpp, inject()): s(n) = A exp(−((n − n0)/w)²) volts for steps n < 2·n0, zero from then on, so
/// the energy is conserved exactly from step 2·n0. w = 8 steps puts the spectrum's −20 dB point at
/// f·Δt = 0.048, just above 1/16, the highest frequency the resonance check uses (λ = 8Δl).
/// The probe records, at every step, the node voltages and currents of one node (NodeFields:
/// Vx Vy Vz Z0Ix Z0Iy Z0Iz, six values per step) as the scatter sees them.
struct Drive {
  Point source;
  Point probe;
  std::vector<float> waveform;  ///< s(n) for n = 0 .. 2·n0 − 1, in the precision the variants add it
  [[nodiscard]] double value(int step) const {
    return step < static_cast<int>(waveform.size()) ? waveform[static_cast<std::size_t>(step)] : 0.0;
  }
  /// The first step from which the source is zero (2·n0).
  [[nodiscard]] int quiet_from() const { return static_cast<int>(waveform.size()); }
};

/// Values the probe records per step (NodeFields).
inline constexpr int kProbeValues = 6;

/// The Gaussian: amplitude, width and delay in steps.
struct GaussianPulse {
  double amplitude = 1.0;
  double width = 8.0;
  int delay = 48;  ///< n0 = 6w: the pulse starts at exp(−36) of its peak
};
std::vector<float> gaussian_waveform(const GaussianPulse& g);

/// The mesh a scenario gets when the user gives no size.
///
/// - cavity: 24 x 18 x 14 cells of 1 mm, a box small enough that 8000 steps resolve five of its
///   TM resonances (the measurements use --nx --ny --nz for larger meshes).
/// - waveguide: WR-28 with 8 cells across b (Δl = 0.4445 mm, 16 x 8 cells), 48 cells long.
/// - filter: the same cross-section, 293 cells long: 150,016 nodes, the paper's filter size (Fig. 7).
Mesh default_mesh(Scenario s);

/// The structure of `s` on `mesh`. For the guide and the filter the cross-section must be WR-28:
/// nx = 2·ny and Δl = b / ny (options.cpp derives both from --ny); the filter needs a mesh long
/// enough for its three cavities (UsageError otherwise).
Structure make_structure(Scenario s, const Mesh& mesh);

/// Where the source and the probe of `s` sit on `mesh` (positions scale with the mesh; on a mesh
/// of one node both are node 0), with the default Gaussian.
///
/// - cavity: Ez at (0.31, 0.27, 0.41) of the box, probe Ez at (0.63, 0.71, 0.17): no node of a
///   low mode's Ez falls on either, so every TM mode below λ = 8Δl rings at the probe.
/// - waveguide: Ey (the TE10 field) at the middle of the broad wall, 0.23 of the length from one
///   end; probe Ey at 0.37 of the broad wall and 0.61 of the length.
/// - filter: Ey in the input guide, probe Ey in the output guide.
Drive make_drive(Scenario s, const Mesh& mesh);

/// The filter's geometry, designed for this chapter (the paper gives none): three cavities of 7.0 mm
/// (about half a guide wavelength at 30 GHz) between four inductive irises, full-height windows
/// of 0.60, 0.45, 0.45 and 0.60 of the broad wall, centred; input and output guides share the rest
/// of the length. Positions rounded to whole cells.
std::vector<Iris> filter_irises(const Mesh& mesh);

}  // namespace gpgpu::tlm
