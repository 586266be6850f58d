#include "gpgpu/tlm/mesh.hpp"

#include <cmath>
#include <limits>

#include "gpgpu/errors.hpp"

namespace gpgpu::tlm {

std::string Mesh::str() const {
  return std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz);
}

void validate_mesh(const Mesh& m) {
  if (m.nx < 1 || m.ny < 1 || m.nz < 1) throw UsageError("mesh " + m.str() + ": every dimension must be at least 1");
  constexpr int kMaxGridDim = 65535;  // CUDA's gridDim.y and gridDim.z
  if (m.ny > kMaxGridDim || m.nz > kMaxGridDim)
    throw UsageError("mesh " + m.str() + ": ny and nz must be at most 65535 (one CUDA block row per y and z)");
  if (12.0 * static_cast<double>(m.nodes()) > static_cast<double>(std::numeric_limits<std::int32_t>::max()))
    throw UsageError("mesh " + m.str() + " has more pulses (12 per node) than 32-bit indices address (2^31 - 1)");
  if (!std::isfinite(m.dl) || m.dl <= 0) throw UsageError("the cell size Δl must be a positive length in metres");
}

}  // namespace gpgpu::tlm
