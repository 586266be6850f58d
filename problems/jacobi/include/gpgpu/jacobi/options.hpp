/// @file options.hpp
/// @brief The Jacobi option group: the grid, the iterations and the weight.
///
///   --nx N --ny N   grid of unknowns (default 1024 x 1024, the paper's size)
///   --iters N       weighted Jacobi iterations (default 1000, the paper's count)
///   --omega W       Jacobi weight in [1e-30, 2) (default 0.8; chapter 01 explains why)
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

/// The smallest --omega. The single-precision variants hold ω in a float and multiply the iterate by
/// it: a weight near float's smallest normal number, 1.2e-38, is held with fewer digits than the error
/// bound of the comparison counts on (1e-300 rounds to 0), while 1e-30 keeps eight orders of
/// magnitude in hand. No smaller weight could show convergence in any number of iterations a run can
/// afford.
inline constexpr double kMinOmega = 1e-30;

/// The sizes --quick selects.
struct QuickSizes {
  Grid grid{192, 160};
  int iters = 100;
};

/// Adds the group to `cli`; after parsing, applies --quick and validates the grid (validate_grid:
/// UsageError for a grid the kernels' 32-bit indices cannot address).
void add_options(Cli& cli, Options& options, QuickSizes quick = {});

}  // namespace gpgpu::jacobi
