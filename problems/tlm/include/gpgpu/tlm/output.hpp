/// @file output.hpp
/// @brief What a run leaves behind besides its tables: a slice of the field, as a NumPy array
/// (--dump) or a colour-mapped picture (--png, through common/png's libpng writer).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/dump.hpp"
#include "gpgpu/tlm/physics.hpp"
#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/solver.hpp"
#include "gpgpu/tlm/structure.hpp"

namespace gpgpu::tlm {

/// The node voltage along `polarisation` (0, 1, 2) on the node layer k, from the incident pulses
/// (canonical order): ny rows of nx values, row j = y. E = −V/Δl.
std::vector<double> field_slice(const Mesh& mesh, std::span<const double> pulses, int polarisation, int k);
std::vector<double> field_slice(const Mesh& mesh, std::span<const float> pulses, int polarisation, int k);

/// A diverging colour map: blue for −scale, white for 0, red for +scale (clamped), magenta for NaN;
/// RGBA, row 0 (y = 0) first, each node a square of `pixels` x `pixels`.
std::vector<std::uint8_t> colour_map(std::span<const double> slice, int nx, int ny, double scale, int pixels);

/// Writes the slice as a PNG (the largest |value| is full colour), each node scaled up to a square
/// of pixels so that the picture is at least 256 pixels on its longer side. Returns the scale.
double write_slice_png(const std::string& path, std::span<const double> slice, int nx, int ny);

/// --dump as NumPy files into `dump`: the reference's probe (steps x 6), energy per step, field on the
/// source's layer, its spectrum (Hz, |X|) and the physics checks' lines (analytic, mesh, measured
/// Hz), unless the reference did not run; each variant's probe and field (`results`: name, what it
/// returned). Returns the line the run prints about them.
std::string write_dump(DumpFolder& dump, const Setup& setup, const ReferenceRun& reference,
                       const std::vector<PhysicsCheck>& physics,
                       const std::vector<std::pair<std::string, RunResult<float>>>& results);

}  // namespace gpgpu::tlm
