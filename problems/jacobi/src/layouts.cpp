#include "gpgpu/jacobi/layouts.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpgpu::jacobi {

template <typename T>
GhostPadded<T> make_ghost_padded_zero(const Grid& g, std::int64_t offset, std::int64_t total_multiple) {
  if (offset < simple_offset(g)) throw std::invalid_argument("ghost offset must be at least nx+1");
  if (total_multiple < 1) throw std::invalid_argument("total_multiple must be positive");
  GhostPadded<T> v;
  v.grid = g;
  v.offset = offset;
  v.data.assign(static_cast<std::size_t>(ghost_padded_length(g, offset, total_multiple)), T{0});
  return v;
}

template <typename T>
GhostPadded<T> make_ghost_padded(const Grid& g, std::span<const T> values, std::int64_t offset,
                                 std::int64_t total_multiple) {
  if (static_cast<std::int64_t>(values.size()) != g.nodes())
    throw std::invalid_argument("make_ghost_padded: value count does not match the grid");
  GhostPadded<T> v = make_ghost_padded_zero<T>(g, offset, total_multiple);
  std::copy(values.begin(), values.end(), v.interior());
  return v;
}

std::vector<float> interleave_rows(const Stencil9& A) {
  const std::int64_t n = A.grid.nodes();
  std::vector<float> out(static_cast<std::size_t>(n) * kStencilPoints);
  for (std::int64_t k = 0; k < n; ++k)
    for (int d = 0; d < kStencilPoints; ++d)
      out[static_cast<std::size_t>(k * kStencilPoints + d)] = A.diag[static_cast<std::size_t>(d)][static_cast<std::size_t>(k)];
  return out;
}

template GhostPadded<float> make_ghost_padded(const Grid&, std::span<const float>, std::int64_t, std::int64_t);
template GhostPadded<double> make_ghost_padded(const Grid&, std::span<const double>, std::int64_t, std::int64_t);
template GhostPadded<float> make_ghost_padded_zero(const Grid&, std::int64_t, std::int64_t);
template GhostPadded<double> make_ghost_padded_zero(const Grid&, std::int64_t, std::int64_t);

}  // namespace gpgpu::jacobi
