/// @file stencil.hpp
/// @brief The 9-point stencil: its directions, their index offsets, and the matrix diagonals.
///
/// Row k of the matrix couples node k = j*nx + i with its 8 neighbours. Each direction is one
/// diagonal of the matrix, at column offset `offset(d, nx)`. The order below is the order of the
/// diagonals from the lowest to the highest (the paper's Fig. 2 and 3).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace gpgpu::jacobi {

/// Directions of the 9-point stencil, in increasing column offset (lowest diagonal first).
enum class Dir : int { SW = 0, S, SE, W, C, E, NW, N, NE };

inline constexpr int kStencilPoints = 9;
inline constexpr std::array<Dir, 9> kAllDirs{Dir::SW, Dir::S, Dir::SE, Dir::W, Dir::C,
                                             Dir::E,  Dir::NW, Dir::N, Dir::NE};

/// Step in x of direction d: -1, 0 or +1.
constexpr int dx(Dir d) { return static_cast<int>(d) % 3 - 1; }
/// Step in y of direction d: -1, 0 or +1.
constexpr int dy(Dir d) { return static_cast<int>(d) / 3 - 1; }
/// The direction with the steps (sx, sy), each in {-1, 0, 1}.
constexpr Dir dir_of(int sx, int sy) { return static_cast<Dir>((sy + 1) * 3 + (sx + 1)); }
/// The opposite direction: A(k, k+offset(d)) == A(k+offset(d), k) is stored under opposite(d).
constexpr Dir opposite(Dir d) { return static_cast<Dir>(8 - static_cast<int>(d)); }
/// Column offset of direction d in a grid with row length `row`: dy*row + dx.
constexpr std::int64_t offset(Dir d, std::int64_t row) { return dy(d) * row + dx(d); }
/// Index of d as an array subscript.
constexpr int idx(Dir d) { return static_cast<int>(d); }

/// Short name of a direction ("SW", "C", ...).
constexpr std::string_view name(Dir d) {
  constexpr std::array<std::string_view, 9> names{"SW", "S", "SE", "W", "C", "E", "NW", "N", "NE"};
  return names[static_cast<std::size_t>(idx(d))];
}

}  // namespace gpgpu::jacobi
