/// @file options.hpp
/// @brief The Jacobi option group: the grid, the iterations and the weight.
///
///   --nx N --ny N   grid of unknowns (default 1024 x 1024, the paper's size)
///   --iters N       weighted Jacobi iterations (default 1000, the paper's count)
///   --omega W       Jacobi weight in (0, 2) (default 0.8; chapter 01 explains why)
///
/// With --quick and no size given: a small grid that is no multiple of any block size.
#pragma once
#include "gpgpu/cli.hpp"
#include "gpgpu/jacobi/grid.hpp"

namespace gpgpu::jacobi {

struct Options {
  Grid grid{1024, 1024};
  int iters = 1000;
  double omega = 0;  ///< kDefaultOmega unless given
};

/// The sizes --quick selects.
struct QuickSizes {
  Grid grid{192, 160};
  int iters = 100;
};

/// Adds the group to `cli`; after parsing, applies --quick and validates the grid (validate_grid:
/// UsageError for a grid the kernels' 32-bit indices cannot address).
void add_options(Cli& cli, Options& options, QuickSizes quick = {});

}  // namespace gpgpu::jacobi
