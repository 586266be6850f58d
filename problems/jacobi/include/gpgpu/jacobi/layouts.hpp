/// @file layouts.hpp
/// @brief Storage layouts of the matrix and of the solution vector, each a small function.
///
/// - Separate diagonals (paper Fig. 2, sec. 6.1): the Stencil9 itself, nine equal-length arrays.
/// - Interleaved rows (paper Fig. 4): one array, the nine coefficients of a row side by side.
/// - Ghost-padded vector (paper Fig. 12): x stored with `offset` ghost elements in front and at
///   least nx+1 behind, so every neighbour index k + offset(d) is in range without a test; the
///   zero coefficients make the ghost values irrelevant, and they are kept at zero.
///   offset = nx+1 is the paper's simple layout; rounding it up to a multiple of the coalescing
///   width gives the aligned layout of chapter 04 (see aligned_offset()).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"

namespace gpgpu::jacobi {

/// A vector of nx*ny unknowns with ghost elements around it (paper Fig. 12).
template <typename T>
struct GhostPadded {
  Grid grid;
  std::int64_t offset = 0;  ///< index of unknown 0 in `data`
  std::vector<T> data;      ///< offset ghosts, nx*ny unknowns, trailing ghosts (all ghosts zero)

  [[nodiscard]] T* interior() { return data.data() + offset; }
  [[nodiscard]] const T* interior() const { return data.data() + offset; }
  [[nodiscard]] std::span<const T> unknowns() const {
    return {interior(), static_cast<std::size_t>(grid.nodes())};
  }
};

/// Ghost rows above and below the grid in the pitched layout of chapter 05 on (CUDA and OpenCL):
/// one for the neighbour row, one more so that the corner neighbours of the first and last rows (a
/// column outside the row) stay inside the allocation even when the pitch adds no padding (the
/// pitched equivalent of the nx+1 ghost elements of the 1D layouts).
inline constexpr int kPitchedGhostRows = 2;

/// The paper's ghost offset: one row plus one element (nx+1).
[[nodiscard]] constexpr std::int64_t simple_offset(const Grid& g) { return static_cast<std::int64_t>(g.nx) + 1; }

/// nx+1 rounded up to a multiple of `multiple` elements (the paper's aligned offset uses 16).
[[nodiscard]] constexpr std::int64_t aligned_offset(const Grid& g, std::int64_t multiple) {
  return (simple_offset(g) + multiple - 1) / multiple * multiple;
}

/// Length of a ghost-padded vector: `offset` leading ghosts, the nx*ny unknowns and nx+1 trailing
/// ghosts, rounded up to a multiple of `total_multiple` (what make_ghost_padded allocates; device
/// code sizes its buffers and bounds with it).
[[nodiscard]] inline std::int64_t ghost_padded_length(const Grid& g, std::int64_t offset,
                                                      std::int64_t total_multiple = 1) {
  const std::int64_t total = offset + g.nodes() + simple_offset(g);
  return (total + total_multiple - 1) / total_multiple * total_multiple;
}

/// Pads `values` (nx*ny unknowns) with `offset` leading ghosts and enough trailing ghosts
/// (at least nx+1, rounded so the total is a multiple of `total_multiple`).
template <typename T>
[[nodiscard]] GhostPadded<T> make_ghost_padded(const Grid& g, std::span<const T> values, std::int64_t offset,
                                               std::int64_t total_multiple = 1);

/// All-zero ghost-padded vector (ghosts and unknowns).
template <typename T>
[[nodiscard]] GhostPadded<T> make_ghost_padded_zero(const Grid& g, std::int64_t offset, std::int64_t total_multiple = 1);

/// Interleaved rows (paper Fig. 4): out[9*k + d] = A.diag[d][k].
[[nodiscard]] std::vector<float> interleave_rows(const Stencil9& A);

extern template GhostPadded<float> make_ghost_padded(const Grid&, std::span<const float>, std::int64_t, std::int64_t);
extern template GhostPadded<double> make_ghost_padded(const Grid&, std::span<const double>, std::int64_t, std::int64_t);
extern template GhostPadded<float> make_ghost_padded_zero(const Grid&, std::int64_t, std::int64_t);
extern template GhostPadded<double> make_ghost_padded_zero(const Grid&, std::int64_t, std::int64_t);

}  // namespace gpgpu::jacobi
