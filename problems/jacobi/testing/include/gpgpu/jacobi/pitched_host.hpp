/// @file pitched_host.hpp
/// @brief Chapter 05's pitched layout in host memory, for the tests and exercise checks that run a
/// CUDA kernel unchanged on the CPU emulation of the CUDA thread model: ny rows of `pitch` floats
/// between kPitchedGhostRows zero rows above and below, the padding at the end of each row zero. Any
/// pitch of at least nx floats works, pitch == nx (no padding at all) included.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/jacobi/layouts.hpp"

namespace gpgpu::jacobi::testing {

/// One pitched field in host memory.
struct HostPitched {
  int pitch = 0;
  std::vector<float> data;  ///< (ny + 2 kPitchedGhostRows) rows of `pitch` floats
  /// Element (0, 0), as the kernels take it.
  [[nodiscard]] float* origin() { return data.data() + kPitchedGhostRows * pitch; }
  [[nodiscard]] const float* origin() const { return data.data() + kPitchedGhostRows * pitch; }
};

/// `values` (nx*ny, row by row) in the pitched layout; with `values` empty, `fill` at every unknown
/// (NaN, say, for an output the kernel must write).
[[nodiscard]] inline HostPitched host_pitched(std::span<const float> values, const Grid& g, int pitch, float fill = 0.0f) {
  HostPitched p{pitch, std::vector<float>(static_cast<std::size_t>(g.ny + 2 * kPitchedGhostRows) * pitch, 0.0f)};
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i)
      p.origin()[j * pitch + i] = values.empty() ? fill : values[static_cast<std::size_t>(j) * g.nx + i];
  return p;
}

/// The nx*ny unknowns of a pitched field, row by row.
[[nodiscard]] inline std::vector<float> host_unknowns(const HostPitched& p, const Grid& g) {
  std::vector<float> out(static_cast<std::size_t>(g.nodes()));
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) out[static_cast<std::size_t>(j) * g.nx + i] = p.origin()[j * p.pitch + i];
  return out;
}

}  // namespace gpgpu::jacobi::testing
