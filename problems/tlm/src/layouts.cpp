#include "gpgpu/tlm/layouts.hpp"

#include <limits>
#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "gpgpu/tlm/scn.hpp"

namespace gpgpu::tlm {

std::int64_t PulseLayout::elements() const {
  return kind == Kind::array_of_structures ? kPorts * mesh.nodes() : kPorts * plane;
}

std::int64_t PulseLayout::at(int p, int i, int j, int k) const {
  if (kind == Kind::array_of_structures) return mesh.index(i, j, k) * kPorts + p;
  return p * plane + (static_cast<std::int64_t>(k) * mesh.ny + j) * pitch + i;
}

std::string PulseLayout::str() const {
  if (kind == Kind::array_of_structures) return "array of structures (12 pulses per node together)";
  return "12 link-line arrays, x rows of " + std::to_string(pitch) + " (segments of " + std::to_string(kSegment) + ")";
}

PulseLayout array_of_structures(const Mesh& mesh) {
  PulseLayout l;
  l.kind = PulseLayout::Kind::array_of_structures;
  l.mesh = mesh;
  l.pitch = mesh.nx;
  l.plane = mesh.nodes();
  return l;
}

PulseLayout segmented(const Mesh& mesh, int segment) {
  PulseLayout l;
  l.kind = PulseLayout::Kind::segmented;
  l.mesh = mesh;
  l.pitch = (mesh.nx + segment - 1) / segment * segment;
  l.plane = static_cast<std::int64_t>(l.pitch) * mesh.ny * mesh.nz;
  if (static_cast<double>(l.elements()) > static_cast<double>(std::numeric_limits<std::int32_t>::max()))
    throw UsageError("mesh " + mesh.str() + ": 12 arrays of rows padded to " + std::to_string(l.pitch) +
                     " nodes exceed 32-bit indices (2^31 - 1)");
  return l;
}

namespace {

template <bool kToLayout>
void convert(const PulseLayout& l, std::span<const float> from, std::vector<float>& to) {
  const Mesh& m = l.mesh;
  const std::int64_t nodes = m.nodes();
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < m.nz; ++k)
    for (int j = 0; j < m.ny; ++j)
      for (int i = 0; i < m.nx; ++i)
        for (int p = 0; p < kPorts; ++p) {
          const auto canonical = static_cast<std::size_t>(p * nodes + m.index(i, j, k));
          const auto stored = static_cast<std::size_t>(l.at(p, i, j, k));
          if constexpr (kToLayout)
            to[stored] = from[canonical];
          else
            to[canonical] = from[stored];
        }
}

}  // namespace

std::vector<float> to_layout(const PulseLayout& l, std::span<const float> canonical) {
  if (canonical.size() != static_cast<std::size_t>(kPorts * l.mesh.nodes())) throw std::invalid_argument("to_layout: size");
  std::vector<float> out(static_cast<std::size_t>(l.elements()), std::numeric_limits<float>::quiet_NaN());
  convert<true>(l, canonical, out);
  return out;
}

std::vector<float> from_layout(const PulseLayout& l, std::span<const float> stored) {
  if (stored.size() != static_cast<std::size_t>(l.elements())) throw std::invalid_argument("from_layout: size");
  std::vector<float> out(static_cast<std::size_t>(kPorts * l.mesh.nodes()));
  convert<false>(l, stored, out);
  return out;
}

}  // namespace gpgpu::tlm
