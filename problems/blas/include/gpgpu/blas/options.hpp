/// @file options.hpp
/// @brief The multiply option group: the sizes, the element type, the calls per timed run.
///
///   --n N           n (columns of B and C); alone, the square N x N x N of the paper
///   --m M, --k K    rows of A and C, the inner dimension (default: n; under --quick without --n,
///                   each size not given is its quick size)
///   --type T        float or double (paper 003 sec. 6.6 measured both)
///   --calls C       products per timed run
///   --tune          variants with several compiled configurations verify and time each, keep the fastest
#pragma once
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/cli.hpp"

namespace gpgpu::blas {

struct Options {
  Dims dims{4096, 4096, 4096};
  ElementType type = ElementType::f32;
  int calls = 3;
  bool tune = false;
};

/// The sizes --quick selects for those not given: no multiple of any tile, warp or vector width.
inline constexpr Dims kQuickDims{67, 129, 93};

/// Adds the group to `cli`; after parsing applies --quick and refuses (UsageError) a matrix of more
/// than matrix::kMaxElements elements (the kernels index with 32-bit ints) and k > kMaxK.
void add_options(Cli& cli, Options& options, std::int64_t default_n = 4096);

}  // namespace gpgpu::blas
