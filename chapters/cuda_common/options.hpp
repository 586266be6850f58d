// The CUDA chapters' own options (besides the shared ones of gpgpu::ChapterCli).
#pragma once
#include <string>

#include "gpgpu/cli.hpp"
#include "gpgpu/cuda_jacobi.hpp"

namespace cuda_chapter {

struct CudaOptions {
  int device = 0;
  gpgpu::cuda_jacobi::LaunchConfig launch;
  int cpu_sample_iters = 3;  ///< iterations of chapter 01's CPU solvers timed for the speedup columns (0: skip)
  int cpu_threads = 0;       ///< 0: all (chapter 01's default)
  std::string sweep;         ///< "", "paper" or "wide"
  bool tune = true;          ///< try the launch configurations of multirow/symmetric, keep the fastest
};

/// Adds --device, --block, --block-y, --rows-per-thread, --cpu-sample-iters, --cpu-threads and,
/// when `width_sweep`, --sweep to the command line.
void add_cuda_options(gpgpu::ChapterCli& cli, CudaOptions& options, bool width_sweep);

}  // namespace cuda_chapter
