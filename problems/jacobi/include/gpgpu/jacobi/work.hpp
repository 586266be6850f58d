/// @file work.hpp
/// @brief The one table of the work each Jacobi kernel must do, from which every GB/s and GFLOP/s
/// of chapters 01-08 is computed (in the spirit of BabelStream's table).
///
/// Counts are per grid node and per iteration, in single precision (4-byte values).
///
/// Weighted Jacobi, x ← (1−ω)x + ωD⁻¹(f − (L+U)x), as the paper's Algorithm 1 writes it:
///   FLOPs: (L+U)x is 8 multiplies and 7 adds; f − … 1; D⁻¹ one division; ω· 1; (1−ω)x 1; + 1 = 20.
///   All accesses: 9 coefficients, 9 x values, f, and the new x = 20 values = 80 B. Caches (CPU
///   caches, GPU L1/L2, shared memory, textures) serve many of these from on-chip memory, which is
///   why a rate counted this way can exceed the memory bandwidth (the paper's Table 7 shows 130%).
///   Minimum traffic: every array read once and the new x written once: 9 coefficients + f + x read
///   (11 arrays), the new x written (1 array) = 12 values = 48 B.
/// With the symmetric storage of 5 diagonals (the paper's future work) the same 20 FLOPs and 80 B of
/// accesses need 5 + 1 + 1 read and 1 written = 8 values = 32 B of minimum traffic.
/// The paper's own counts (other FLOPs per node, 2^30-byte gigabytes) are in paper000.hpp.
#pragma once
#include <array>
#include <string_view>

#include "gpgpu/backend.hpp"
#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::jacobi {

/// The work of one kernel per grid node and iteration.
struct KernelWork {
  std::string_view kernel;  ///< key: "jacobi9", "jacobi9_symmetric"
  double flops;             ///< floating-point operations
  double bytes_all;         ///< bytes of all loads and stores the code issues
  int reads;                ///< arrays read once each (their values are the minimum traffic read)
  int writes;               ///< arrays written once each
  std::string_view what;    ///< one line for tables and docs
  [[nodiscard]] constexpr double bytes_min() const { return 4.0 * (reads + writes); }
};

/// Every Jacobi kernel of the tutorial. Add a row here, never a count in a chapter.
inline constexpr std::array kWorkTable{
    KernelWork{"jacobi9", 20, 80, 11, 1, "weighted Jacobi, 9 stored diagonals"},
    KernelWork{"jacobi9_symmetric", 20, 80, 7, 1, "weighted Jacobi, 5 stored diagonals (symmetric)"},
};

/// The row for `kernel`; throws std::out_of_range for an unknown name.
const KernelWork& kernel_work(std::string_view kernel);

/// The work of `iters` iterations of `kernel` on `grid`.
Work work(std::string_view kernel, const Grid& grid, int iters);

/// The traffic pattern of `kernel` on `grid`: the limit that judges it streams the same arrays.
StreamMix stream_mix(std::string_view kernel, const Grid& grid, int threads = 0);

}  // namespace gpgpu::jacobi
