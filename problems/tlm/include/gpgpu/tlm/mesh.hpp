/// @file mesh.hpp
/// @brief The TLM mesh: nx x ny x nz cubic cells of side Δl, one symmetrical condensed node at the
/// centre of each, and the time step the node implies.
///
/// Node (i, j, k) sits at ((i + ½)Δl, (j + ½)Δl, (k + ½)Δl); the mesh's outer faces are the walls of
/// the box, so a box of a x b x d metres is nx = a/Δl cells wide. Every array of the chapter numbers
/// the nodes x fastest, then y, then z (the paper's order, sec. IV): node = (k·ny + j)·nx + i.
#pragma once
#include <cstdint>
#include <string>

namespace gpgpu::tlm {

/// Speed of light in vacuum, m/s (exact by the SI definition of the metre).
inline constexpr double kSpeedOfLight = 299792458.0;

struct Mesh {
  int nx = 64;
  int ny = 48;
  int nz = 40;
  double dl = 1e-3;  ///< Δl, the cell size in metres

  [[nodiscard]] std::int64_t nodes() const {
    return static_cast<std::int64_t>(nx) * static_cast<std::int64_t>(ny) * static_cast<std::int64_t>(nz);
  }
  /// Δt = Δl / (2c): the SCN's time step (a pulse crosses one link line, Δl, per step at 2c; a
  /// plane wave, which needs two scatterings per cell, moves at c).
  [[nodiscard]] double dt() const { return dl / (2.0 * kSpeedOfLight); }
  [[nodiscard]] std::int64_t index(int i, int j, int k) const {
    return (static_cast<std::int64_t>(k) * ny + j) * nx + i;
  }
  /// "64 x 48 x 40".
  [[nodiscard]] std::string str() const;
};

/// Throws UsageError for a mesh the kernels cannot address: 12 pulses per node must fit 32-bit
/// indices (12·nodes < 2^31), ny and nz must fit a CUDA grid dimension (65535), Δl must be a
/// positive finite length.
void validate_mesh(const Mesh& mesh);

}  // namespace gpgpu::tlm
