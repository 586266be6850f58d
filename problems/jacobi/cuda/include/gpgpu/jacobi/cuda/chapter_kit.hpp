/// @file chapter_kit.hpp
/// @brief What every CUDA Jacobi chapter (03-08) shares besides its kernels and its host code: the
/// launch options of the command line, the chapter's settings (chapter 01's CPU timed on the same
/// system for the speedup columns), and the part of a variant that says "CUDA".
#pragma once
#include <functional>
#include <initializer_list>
#include <string>

#include "gpgpu/cli.hpp"
#include "gpgpu/jacobi/chapter.hpp"

namespace gpgpu::jacobi::cuda {

/// Launch parameters the user may fix; 0 means each variant's own default.
struct LaunchOptions {
  int block = 0;            ///< --block: threads per block (the 2D-block kernel: block width)
  int block_y = 0;          ///< --block-y: block height of the 2D-block kernel (tiled2d)
  int rows_per_thread = 0;  ///< --rows-per-thread: rows each thread walks (multirow, symmetric); 0: from the occupancy
  bool tune = true;         ///< off with --no-tune: multirow and symmetric keep their default launch
  /// Whether a solver may time its launch candidates and keep the fastest: only when the user fixed none.
  [[nodiscard]] bool tuning() const { return tune && block == 0 && rows_per_thread == 0; }
  /// `block`, or the variant's default when it is 0.
  [[nodiscard]] int block_or(int default_block) const { return block > 0 ? block : default_block; }
};

/// The options every CUDA chapter adds to the core's, the Jacobi group's and --device.
struct CudaOptions {
  LaunchOptions launch;
  int cpu_threads = 0;  ///< --cpu-threads: threads of chapter 01's multi-threaded CPU baseline (0: all)
};

/// Adds --block, --block-y, --rows-per-thread and --no-tune (group "CUDA launch") and --cpu-threads
/// (group "CPU comparison") to a chapter's command line.
void add_options(Cli& cli, CudaOptions& options);

/// The settings of a CUDA chapter: chapter 01's faster CPU layout timed on the same system, on one
/// thread and on options.cpu_threads (read when the run starts: `options` must outlive the chapter),
/// the host memory the CUDA solvers add per node, and --sweep where the chapter offers the paper's
/// width sweep (chapters 03-06).
ChapterSettings chapter_settings(const CudaOptions& options, bool width_sweep);

/// The CUDA part of a variant's record: its name, description, kernel file and the paper's name for
/// it, the backend and opener (gpgpu::cuda::opener), the timer ("CUDA events") and its row of the
/// work table. The caller adds make and check_fits.
Variant cuda_variant(std::string name, std::string description, std::string kernel_file, std::string paper_name,
                     std::string work = "jacobi9");

/// A check_fits that refuses (UsageError) a grid whose device buffers, `device_bytes(grid)`, do not
/// fit into the free memory of the session's device.
std::function<void(const Grid&, Session&)> fits_device_memory(std::string variant,
                                                              std::function<double(const Grid&)> device_bytes);

/// A variant of a CUDA chapter, made for the launch options of the command line.
using VariantFactory = Variant (*)(const LaunchOptions& launch);

/// The run of a CUDA Jacobi chapter (03-07b): the CUDA launch options and the CPU comparison on the
/// command line, `variants` in the order given, --sweep where `width_sweep` (the chapter's main()).
/// Returns the exit code.
int run_chapter(const ChapterInfo& info, int argc, char** argv, std::initializer_list<VariantFactory> variants,
                bool width_sweep);

/// Throws UsageError unless CUDA can launch a block of block_x x block_y threads (1 to 1024 in all).
void check_block(int block_x, int block_y = 1);

}  // namespace gpgpu::jacobi::cuda
