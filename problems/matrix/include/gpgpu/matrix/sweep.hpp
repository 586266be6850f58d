/// @file sweep.hpp
/// @brief Paper 003's sizes in one run (Tabs. 8-10: n x n for n = 16, 32, ..., 4096), and beyond
/// the L2: every chosen variant verified and timed at every n, kernel alone and with its copies,
/// its GB/s by the paper's formula (1) and its share of the limit measured at that n for its
/// read:write mix; then each port over its original against n, beside the paper's ratios (20x at
/// n = 16, 2.2x at 4096 in Tab. 10).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "gpgpu/matrix/chapter.hpp"

namespace gpgpu::matrix {

/// The shapes of a sweep mode: "paper" (16 ... 4096) or "wide" (also 8192 and 16384); `quick`
/// keeps those up to 256.
std::vector<Shape> sweep_shapes(const std::string& mode, bool quick);

/// Runs the sweep of chapter.sweep_mode() over `variants` (opened and checked to fit at the
/// largest size); prints the tables, writes --csv (one line per size and variant) and --json;
/// returns the exit code (1 when any point failed its verification).
int run_sweep(Chapter& chapter, std::ostream& out, const std::vector<const VariantSpec*>& variants);

}  // namespace gpgpu::matrix
