/// @file decomposition.hpp
/// @brief How chapter 13 splits the grid: the rows over G parts (one per GPU or MPI rank), each part
/// holding its own rows plus ghost rows, copies of its neighbours' boundary rows. Plain C++: the
/// CPU tests check it without a GPU.
#pragma once
#include <cstddef>
#include <span>

namespace ch13 {

/// Rows [begin, end) of the grid.
struct RowRange {
  int begin = 0;
  int end = 0;
  [[nodiscard]] int count() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

/// The rows of a grid of `rows` rows split over `parts` parts, in order and as evenly as they go:
/// the first rows % parts parts hold one row more. Part p's neighbours are p-1 (the rows below it,
/// smaller j) and p+1 (the rows above).
class Decomposition {
 public:
  /// Throws gpgpu::UsageError (exit 2) unless 1 <= parts <= rows: every part needs a row.
  Decomposition(int rows, int parts);

  [[nodiscard]] int parts() const { return parts_; }
  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] RowRange part(int p) const;
  [[nodiscard]] bool has_below(int p) const { return p > 0; }
  [[nodiscard]] bool has_above(int p) const { return p + 1 < parts_; }
  /// The rows of part p with `ghost` rows on each side, clipped to the grid: what must be copied
  /// into the part's storage from the whole field (the rest of its ghost rows stay zero).
  [[nodiscard]] RowRange with_ghosts(int p, int ghost) const;

 private:
  int rows_;
  int parts_;
};

/// Rows `r` of a field of `nx` values per row: the slice a part receives.
[[nodiscard]] inline std::span<const float> rows_of(std::span<const float> field, int nx, RowRange r) {
  return field.subspan(static_cast<std::size_t>(r.begin) * static_cast<std::size_t>(nx),
                       static_cast<std::size_t>(r.count()) * static_cast<std::size_t>(nx));
}

}  // namespace ch13
