// The width sweep of the paper's Fig. 19 and Tables 1-2: height fixed (1024), width varied around
// 512, every variant verified at every width, then timed; the paper's seconds beside ours.
#pragma once
#include <iosfwd>

#include "cuda_chapter.hpp"
#include "gpu_context.hpp"
#include "options.hpp"

namespace cuda_chapter {

/// Runs the sweep (cuda.sweep = "paper" or "wide"); writes --csv and --json; returns the exit code.
int run_sweep(std::ostream& out, const ChapterSpec& spec, const gpgpu::CommonOptions& opt, const CudaOptions& cuda,
              const GpuContext& gpu);

}  // namespace cuda_chapter
