/// @file cuda_jacobi.hpp
/// @brief The CUDA Jacobi solvers of chapters 03-07b behind a plain C++ interface: no CUDA type
/// appears here, so any .cpp file (a chapter, a test, a benchmark, the OpenCL chapter comparing
/// itself with CUDA) can use them.
///
/// @code
///   auto solver = gpgpu::cuda_jacobi::make_solver("shared", system);   // matrix uploaded (untimed)
///   solver->upload(x0);                                                // untimed, as in the paper
///   double seconds = solver->run(1000, 0.8f);                          // timed with CUDA events
///   std::vector<float> x = solver->download();
/// @endcode
/// The CUDA device must have been chosen before (gpgpu::cuda::open_device).
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/experiment.hpp"
#include "gpgpu/problem.hpp"

namespace gpgpu::cuda_jacobi {

/// Launch parameters; 0 means the variant's default.
struct LaunchConfig {
  int block_x = 0;          ///< threads per block (1D kernels) or block width (2D kernels)
  int block_y = 0;          ///< block height of the 2D kernel (tiled2d)
  int rows_per_thread = 0;  ///< rows each thread walks through (multirow, symmetric); 0: chosen from the occupancy
};

/// One variant: which kernel file it runs and how the paper named it.
struct VariantInfo {
  std::string_view name;          ///< --variant name: "simple", "aligned", ...
  std::string_view kernel_file;   ///< "kernels/cuda/01_jacobi_simple.cu"
  std::string_view paper_name;    ///< the paper's name ("CUDA Simple", ...) or "" past the paper
  std::string_view work;          ///< row of gpgpu::kWorkTable: "jacobi9" or "jacobi9_symmetric"
  std::string_view description;   ///< one line for tables
  int default_block_x;
  int default_block_y;
};

/// Every variant, in the order of the kernel files.
std::span<const VariantInfo> variants();

/// The variant called `name`; throws UsageError for an unknown name.
const VariantInfo& variant_info(std::string_view name);

/// A solver on the current CUDA device: owns the device copies of the matrix, f and both iterates.
class Solver {
 public:
  virtual ~Solver() = default;
  /// Copies the initial guess (nx*ny values) to the device and poisons the other buffer's unknowns
  /// with NaN (ghosts stay zero), so an element a kernel fails to write shows up. Untimed.
  virtual void upload(std::span<const float> x0) = 0;
  /// Runs `iters` iterations from the current iterate; returns their GPU time in seconds
  /// (CUDA events around the launches). Successive calls continue the iteration.
  virtual double run(int iters, float omega) = 0;
  /// The current iterate (nx*ny values).
  [[nodiscard]] virtual std::vector<float> download() const = 0;
  /// Times every launch configuration the variant offers (block size x rows per thread for
  /// multirow and symmetric) over `iters` iterations, keeps the fastest and returns what it chose
  /// and how many it tried; returns "" for variants with nothing to tune. Leaves an arbitrary
  /// iterate behind: call upload() afterwards.
  virtual std::string tune(int iters, float omega) {
    (void)iters;
    (void)omega;
    return {};
  }
  /// Grid, block and layout actually used, e.g. "grid 16384, block 64, offset 1056".
  [[nodiscard]] virtual std::string launch_text() const = 0;
  [[nodiscard]] virtual const VariantInfo& info() const = 0;
};

/// Device bytes `variant` allocates for `grid` (an upper bound, for the memory check).
double device_bytes(std::string_view variant, const Grid& grid);

/// Throws UsageError when `variant` cannot run on `grid` on the current device: not enough free
/// device memory, or (texture) a padded x wider than the device's 1D linear texture limit. Cheap:
/// call it before long preparations. make_solver() calls it too.
void check_limits(std::string_view variant, const Grid& grid);

/// Builds the solver and uploads the matrix and f (untimed). Throws UsageError when the grid does
/// not fit into the free device memory or a limit of the variant (texture width, block size).
std::unique_ptr<Solver> make_solver(std::string_view variant, const LinearSystem& sys, const LaunchConfig& config = {});

/// One variant's share of a chapter run: the experiment's warm-ups and timed repeats, each from its
/// initial guess (uploaded untimed, as in the paper) for its iterations; returns the CUDA-event
/// times and the final iterate. Chapters 03-07b and chapter 08's --compare-cuda call it.
VariantResult run_experiment(Solver& solver, const JacobiExperiment& exp);

}  // namespace gpgpu::cuda_jacobi
