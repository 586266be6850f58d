/// @file then_now.hpp
/// @brief Paper 002's figures beside this run's, in the paper's units: million node updates per
/// second (MNodes/s) and GB/s of memory traffic.
#pragma once
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"
#include "gpgpu/tlm/structure.hpp"

namespace gpgpu::tlm {

/// The paper's rows (sec. VI: 293 and 288 MNodes/s; Fig. 5: 25 against 3 GB/s), then one row per
/// result of this run, with notes on Figs. 7 and 11 and on what the paper's 293 MNodes/s implies.
ThenNowTable then_now(const std::vector<ResultRow>& rows, const Structure& structure);

/// Pairs of variants of this run that the paper compares: coalesced over uncoalesced (Fig. 5's
/// "over 8 times"), OpenCL over CUDA (Fig. 11), fused over the paper's two kernels. Each row: the
/// pair, the ratio of their node rates (first over second), what the paper found.
struct Comparison {
  std::string what, first, second;
  double ratio = 0;
  std::string paper;
};
std::vector<Comparison> comparisons(const std::vector<ResultRow>& rows, double nodes);

/// Prints the comparisons of `rows` as a table (nothing when there are none) and returns them as
/// the result JSON's "comparisons" array (what, first, second, ratio, paper).
nlohmann::json print_comparisons(std::ostream& out, const std::vector<ResultRow>& rows, double nodes);

}  // namespace gpgpu::tlm
