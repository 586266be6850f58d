/// @file cuda_chapter.hpp
/// @brief The experiment flow chapters 03-07b share, so that each chapter's main() holds only what
/// the chapter is about: which kernels it runs (the new one last) and which of the paper's
/// figures it sets beside them.
///
/// One run: options (parsed before the GPU is touched) -> GPU (or exit 77 with one line) -> run
/// header with host and GPU -> device memory check -> device-to-device copy bandwidth (the limit)
/// -> assembly and CPU double-precision reference -> chapter 01's CPU on the same system (speedup
/// columns) -> each variant: upload (untimed), iterations (CUDA events), download, verify ->
/// tables (ms/iteration, GFLOP/s, GB/s both ways, share of the copy bandwidth, time over the
/// floor, speedups, the paper's figures) -> CSV/JSON.
/// With --sweep the chapter runs the width sweep of the paper's Fig. 19 / Tables 1-2 instead.
#pragma once
#include <string>
#include <vector>

#include "gpgpu/experiment.hpp"

namespace cuda_chapter {

struct ChapterSpec {
  gpgpu::ChapterInfo info;
  /// Variants of gpgpu::cuda_jacobi, in order: the previous chapter's for comparison, then the new.
  std::vector<std::string> variants;
  /// Whether --sweep (the paper's width sweep) is offered (chapters 03-06).
  bool width_sweep = false;
};

/// Runs the chapter; returns the exit code (use inside gpgpu::run_main).
int run(int argc, char** argv, const ChapterSpec& spec);

}  // namespace cuda_chapter
