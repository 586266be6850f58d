/// @file experiment.hpp
/// @brief One run of a Jacobi chapter: the problem, the CPU reference inside every run, the
/// verification of each variant before any of its numbers is printed, and the outputs.
///
/// A chapter's main() reads like the steps of the experiment:
/// @code
///   gpgpu::ChapterCli cli("ch01_cpu_jacobi", "...", {"separate", "interleaved", "openmp"});
///   const auto& opt = cli.parse(argc, argv);
///   gpgpu::JacobiExperiment exp(info, opt, bytes_per_node);
///   exp.prepare(std::cout);                       // assemble, estimate λmax, run the reference
///   for (variant : opt.variants) exp.record(std::cout, row_meta, run_variant(...));
///   return exp.finish(std::cout, then_rows);      // tables, CSV, JSON, .npy dump, exit code
/// @endcode
#pragma once
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/problem.hpp"
#include "gpgpu/report.hpp"
#include "gpgpu/spectral.hpp"
#include "gpgpu/work_counts.hpp"

namespace gpgpu {

/// Who is running: printed in the header and stored in the JSON.
struct ChapterInfo {
  std::string id;       ///< "01"
  std::string program;  ///< executable name
  std::string title;    ///< one line
  std::string paper;    ///< which paper and section the chapter retells
};

/// What one variant produced: the final iterate and the time of every timed run.
struct VariantResult {
  std::vector<float> solution;  ///< nx*ny unknowns after opt.iters iterations
  std::vector<double> samples;  ///< seconds per timed run (warm-up runs excluded)
};

/// Runs `run_once` opt.warmup times untimed, then opt.repeat times, collecting the seconds each
/// timed call returns (the call measures itself: host clock, CUDA events, ...).
std::vector<double> repeat_runs(const CommonOptions& opt, const std::function<double()>& run_once);

class JacobiExperiment {
 public:
  /// Refuses (UsageError) a grid whose host memory would not fit: the experiment's own ~80 B per
  /// node plus `chapter_bytes_per_node` for the chapter's layouts.
  JacobiExperiment(ChapterInfo info, const CommonOptions& options, double chapter_bytes_per_node);

  /// Chapter title, host, options.
  void print_header(std::ostream& out) const;
  /// Assembles the system, estimates λmax(D⁻¹A) and runs the double-precision reference.
  void prepare(std::ostream& out);

  [[nodiscard]] const LinearSystem& system() const { return system_; }
  [[nodiscard]] const CommonOptions& options() const { return options_; }
  [[nodiscard]] const SpectralEstimate& spectrum() const { return spectrum_; }
  /// The initial guess every variant starts from (zero, as a solver would start).
  [[nodiscard]] std::span<const float> initial_guess() const { return x0_; }
  /// The double-precision reference result after opt.iters iterations (empty with --no-verify).
  [[nodiscard]] std::span<const double> reference() const { return reference_; }

  /// Says whether one iteration's minimum traffic (work.bytes_min per node) fits in a cache of
  /// `cache_bytes` (the CPU's last-level cache, a GPU's L2): then rates above the memory limit are
  /// cache rates, and the chapter should say so.
  void print_cache_note(std::ostream& out, const WorkCounts& work, double cache_bytes,
                        const std::string& cache_name) const;

  /// Attaches backend details (GPU, driver, clocks, platform...) to the JSON output.
  void set_device_json(nlohmann::json device) { device_json_ = std::move(device); }

  /// Verifies `result` against the reference, prints one status line, and keeps the row.
  /// `row` carries variant, description, device, timer, work and limit; the rest is filled here.
  const ResultRow& record(std::ostream& out, ResultRow row, VariantResult result);

  [[nodiscard]] const std::vector<ResultRow>& rows() const { return rows_; }

  /// Prints the result and then/now tables, writes --csv, --json and --dump, and returns the exit
  /// code: 0 if every variant passed, 1 otherwise.
  int finish(std::ostream& out, std::vector<ThenNowRow> then);

 private:
  ChapterInfo info_;
  CommonOptions options_;
  LinearSystem system_;
  SpectralEstimate spectrum_;
  std::vector<float> x0_;
  std::vector<double> reference_;
  double reference_seconds_ = 0;
  std::vector<ResultRow> rows_;
  std::vector<std::pair<std::string, std::vector<float>>> dumped_solutions_;
  nlohmann::json device_json_;
};

}  // namespace gpgpu
