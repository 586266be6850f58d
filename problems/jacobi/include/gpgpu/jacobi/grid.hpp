/// @file grid.hpp
/// @brief The nx × ny grid of unknowns and the limits every kernel relies on.
#pragma once
#include <cstdint>
#include <string>

namespace gpgpu::jacobi {

/// Grid of unknowns: nx columns (x, fastest index) by ny rows. Node (i, j) has index k = j*nx + i.
struct Grid {
  int nx = 0;
  int ny = 0;
  /// Number of unknowns nx*ny.
  [[nodiscard]] std::int64_t nodes() const { return static_cast<std::int64_t>(nx) * ny; }
  [[nodiscard]] std::string str() const { return std::to_string(nx) + "x" + std::to_string(ny); }
  friend bool operator==(const Grid&, const Grid&) = default;
};

/// Room every layout may add around the unknowns (ghost rows, alignment, pitch padding). Kernels
/// index with 32-bit integers, so nodes plus this headroom must stay below 2^31.
inline constexpr std::int64_t kIndexHeadroomRows = 4;
inline constexpr std::int64_t kIndexHeadroomElements = 256;  ///< per row: pitch padding up to 1 KiB

/// Throws UsageError unless nx, ny >= 1 and every padded layout of the grid can be indexed with
/// 32-bit integers.
void validate_grid(const Grid& grid);

}  // namespace gpgpu::jacobi
