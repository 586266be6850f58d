#include "decomposition.hpp"

#include <algorithm>
#include <string>

#include "gpgpu/errors.hpp"

namespace ch13 {

Decomposition::Decomposition(int rows, int parts) : rows_(rows), parts_(parts) {
  if (parts < 1) throw gpgpu::UsageError("the grid must be split into at least one part, not " + std::to_string(parts));
  if (parts > rows)
    throw gpgpu::UsageError(std::to_string(parts) + " GPUs (or ranks) need a grid of at least " + std::to_string(parts) +
                            " rows; --ny is " + std::to_string(rows));
}

RowRange Decomposition::part(int p) const {
  const int base = rows_ / parts_, extra = rows_ % parts_;
  const int begin = p * base + std::min(p, extra);
  return {begin, begin + base + (p < extra ? 1 : 0)};
}

RowRange Decomposition::with_ghosts(int p, int ghost) const {
  const RowRange r = part(p);
  return {std::max(0, r.begin - ghost), std::min(rows_, r.end + ghost)};
}

}  // namespace ch13
