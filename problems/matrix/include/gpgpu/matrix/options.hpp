/// @file options.hpp
/// @brief The matrix option group: the shape, the element type, the calls per timed run.
///
///   --n N                 square N x N (the papers' sizes)
///   --rows R --cols C     rectangular R x C (instead of --n)
///   --type T              float, double or int (paper 003 measured all three)
///   --calls K             kernel calls per timed run (short kernels are timed over several calls)
#pragma once
#include "gpgpu/cli.hpp"
#include "gpgpu/matrix/matrix.hpp"

namespace gpgpu::matrix {

struct Options {
  Shape shape{4096, 4096};
  ElementType type = ElementType::f32;
  int calls = 10;
};

/// The most elements a matrix may have: kernels index elements with 32-bit ints, and an index plus
/// one grid-stride step (fewer than 2^25 threads in any grid of the tutorial) must still fit one.
inline constexpr std::int64_t kMaxElements = (std::int64_t{1} << 31) - (std::int64_t{1} << 25);

/// The sizes --quick selects when no size is given.
struct QuickSizes {
  Shape shape{67, 129};  ///< no multiple of any tile or warp, not square
  int calls = 2;
};

/// Adds the group to `cli`; after parsing applies --quick and refuses (UsageError) --n together
/// with --rows/--cols and a matrix of more than kMaxElements elements.
void add_options(Cli& cli, Options& options, Shape default_shape, QuickSizes quick = {});

}  // namespace gpgpu::matrix
