/// @file routine_options.hpp
/// @brief The option group of paper 001's benchmark (chapter 12):
///
///   --routine R[,R]|all    saxpy, sscal, sgemv, sgemv_t, sgemm, conv2d (default all)
///   --vector N             n of saxpy and sscal
///   --gemv-rows M, --gemv-cols N   A of sgemv and sgemv_t
///   --gemm N               square n of sgemm
///   --image-rows R, --image-cols C, --k K   image and (odd) filter side of conv2d
///   --filter random|separable               conv2d's filter: random, or rank one (u vᵀ)
///   --calls C              calls per timed run
#pragma once
#include <cstdint>
#include <vector>

#include "gpgpu/blas/routines.hpp"
#include "gpgpu/cli.hpp"
#include "gpgpu/matrix/options.hpp"

namespace gpgpu::blas {

struct RoutineOptions {
  std::vector<Routine> routines{std::begin(kRoutines), std::end(kRoutines)};
  RoutineSizes sizes;
  int calls = 5;
};

/// The largest --gemm, 45977: its n x n matrices must not exceed matrix::kMaxElements (the kernels
/// index with 32-bit ints), so that --help states the bound the run checks.
inline constexpr std::int64_t kMaxGemm = [] {
  std::int64_t n = 0;
  while ((n + 1) * (n + 1) <= matrix::kMaxElements) ++n;
  return n;
}();

/// What --quick selects for sizes not given: none a multiple of a block, a tile or a vector width.
inline constexpr RoutineSizes kQuickRoutineSizes{1000003, 1023, 517, 257, {517, 259, 5}, false};

/// Adds the group to `cli`; after parsing applies --quick and refuses (UsageError) an even or too
/// large --k, and sizes the 32-bit indices of the kernels and of the BLAS interfaces cannot hold.
void add_routine_options(Cli& cli, RoutineOptions& options);

}  // namespace gpgpu::blas
