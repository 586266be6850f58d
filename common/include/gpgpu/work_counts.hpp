/// @file work_counts.hpp
/// @brief The one table of the work each kernel must do, from which every GB/s and GFLOP/s of
/// the tutorial is computed (in the spirit of BabelStream's table).
///
/// Counts are per grid node and per iteration, in single precision (4-byte values).
///
/// Weighted Jacobi, x ← (1−ω)x + ωD⁻¹(f − (L+U)x), written as the paper's Algorithm 1:
///   FLOPs: (L+U)x is 8 multiplies and 7 adds; f − … 1; D⁻¹ one division; ω· 1; (1−ω)x 1; + 1 = 20.
///   All accesses (the paper's count behind Tables 6 and 7): 9 coefficients, 9 x values, f, and
///   the new x = 20 values = 80 B. Caches (CPU caches, GPU L1/L2, shared memory, textures) serve
///   many of these from on-chip memory, which is why a rate counted this way can exceed the
///   memory bandwidth (the paper's Table 7 shows 130% of peak).
///   Minimum traffic (the paper's Table 8, "device memory only"): every array read once and the new
///   x written once: 9 coefficients + f + x + new x = 12 values = 48 B.
/// The paper's own figures use 2^30-byte gigabytes and these 80 B and 48 B per node: its Tables 6-8
/// agree with them to three digits, except CUDA Shared, whose device-memory figure counts 56 B.
///
/// With the symmetric storage of 5 diagonals (the paper's future work) the same 20 FLOPs and 80 B of
/// accesses need only 5 + 1 + 2 = 8 values = 32 B of minimum traffic.
#pragma once
#include <array>
#include <string_view>

namespace gpgpu {

/// Work of one kernel per grid node and iteration.
struct WorkCounts {
  std::string_view kernel;  ///< key used by chapters, e.g. "jacobi9"
  double flops;             ///< floating-point operations
  double bytes_all;         ///< bytes of all loads and stores the code issues
  double bytes_min;         ///< bytes that must cross the memory bus at least
  std::string_view what;    ///< one-line description for tables and docs
};

/// Every kernel of the tutorial that reports a rate. Add a row here, never a count in a chapter.
inline constexpr std::array kWorkTable{
    WorkCounts{"jacobi9", 20, 80, 48, "weighted Jacobi, 9 stored diagonals"},
    WorkCounts{"jacobi9_symmetric", 20, 80, 32, "weighted Jacobi, 5 stored diagonals (symmetric)"},
    WorkCounts{"copy", 0, 8, 8, "y = x (bandwidth reference: 4 B read + 4 B written)"},
};

/// The row for `kernel`; throws std::out_of_range for an unknown name.
const WorkCounts& work_counts(std::string_view kernel);

/// Rates derived from a work count, a node count, an iteration count and a time in seconds.
struct Rates {
  double gflops;   ///< 1e9 FLOP/s
  double gbs_all;  ///< 1e9 B/s, all accesses
  double gbs_min;  ///< 1e9 B/s, minimum traffic
};
Rates rates(const WorkCounts& w, double nodes, double iters, double seconds);

/// The floor of a kernel: seconds per iteration to move its minimum bytes on `nodes` unknowns at
/// `limit_gbs` (1e9 B/s, the copy bandwidth measured in the same run).
double floor_seconds_per_iter(const WorkCounts& w, double nodes, double limit_gbs);

}  // namespace gpgpu
