#include "gpgpu/jacobi/grid.hpp"

#include <limits>

#include "gpgpu/errors.hpp"

namespace gpgpu::jacobi {

void validate_grid(const Grid& grid) {
  if (grid.nx < 1 || grid.ny < 1)
    throw UsageError("grid " + grid.str() + ": nx and ny must be at least 1");
  const std::int64_t padded = grid.nodes() + kIndexHeadroomRows * (static_cast<std::int64_t>(grid.nx) + 1) +
                              kIndexHeadroomElements * (static_cast<std::int64_t>(grid.ny) + kIndexHeadroomRows);
  if (padded > std::numeric_limits<std::int32_t>::max())
    throw UsageError("grid " + grid.str() + " has " + std::to_string(grid.nodes()) +
                     " nodes: too many for the kernels' 32-bit indices (at most about 2.1e9 with padding)");
}

}  // namespace gpgpu::jacobi
