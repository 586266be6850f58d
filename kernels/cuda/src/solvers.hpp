// Internal: the two solver families and what make_solver() needs to choose between them.
#pragma once
#include <cstddef>
#include <memory>

#include "gpgpu/cuda_jacobi.hpp"

namespace gpgpu::cuda_jacobi {

enum class LinearKind { simple, aligned16, aligned32, texture };
enum class PitchedKind { pitched, shared, readonly, tiled2d, multirow, symmetric };

std::unique_ptr<Solver> make_linear_solver(const VariantInfo& info, const LinearSystem& sys,
                                           const LaunchConfig& config, LinearKind kind);
std::unique_ptr<Solver> make_pitched_solver(const VariantInfo& info, const LinearSystem& sys,
                                            const LaunchConfig& config, PitchedKind kind);

/// The current device's texture limits: base alignment (bytes) and widest 1D linear float texture.
struct TextureLimits {
  std::size_t alignment;
  std::size_t max_floats;
};
TextureLimits texture_limits();

/// Floats of one ghost-padded iterate of the 1D layouts (upper bound over the three offsets).
std::size_t linear_padded_floats(const Grid& grid);

}  // namespace gpgpu::cuda_jacobi
