/// @file sweep.hpp
/// @brief Paper 003's sizes in one run (Tabs. 4-7: n x n x n for n = 16 ... 4096), and 8192: every
/// chosen variant verified and timed at every n; GFLOP/s, % of the vendor library at that n, the
/// paper's time; then each port over its original against n beside the paper's ratios (OpenCL
/// 24x slower than CUDA at n = 16 on the GT 240, 1.1x at 2048, Tab. 6).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "gpgpu/blas/chapter.hpp"

namespace gpgpu::blas {

/// "paper": 16, 32, ..., 4096; "wide": also 8192; `quick` keeps those up to 256.
std::vector<Dims> sweep_dims(const std::string& mode, bool quick);

/// Runs the sweep over `variants` (opened, checked to fit at the largest size); prints the tables,
/// writes --csv and --json; returns the exit code (1 when any point failed its verification).
int run_sweep(Chapter& chapter, std::ostream& out, const std::vector<const VariantSpec*>& variants);

}  // namespace gpgpu::blas
