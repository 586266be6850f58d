/// @file then_now.hpp
/// @brief Paper 000's figures beside this run's, in the paper's own units and counts.
///
/// Every "now" number is converted into the unit of its column, which is the paper's: seconds for
/// 1000 iterations at 1024², GFLOP/s with the paper's FLOPs per node for the same implementation,
/// GB/s in 2^30-byte gigabytes with the paper's byte counts. The share of bandwidth compares the
/// paper's figure with its theoretical peak and ours with ours (and, for ours, with the limit
/// measured in this run, which the paper did not have).
#pragma once
#include <string>
#include <vector>

#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"

namespace gpgpu::jacobi {

/// The paper's rows for `implementations` (Tables 3-8 at 1024², or Table 1 at width 512 scaled to
/// 1024² for the kernels the paper measured only there), then one row per result of this run.
ThenNowTable then_now(const std::vector<std::string>& implementations, const std::vector<ResultRow>& rows);

}  // namespace gpgpu::jacobi
