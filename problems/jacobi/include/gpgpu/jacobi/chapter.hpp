/// @file chapter.hpp
/// @brief One run of a Jacobi chapter (01-08), whatever backends its variants use.
///
/// @code
///   gpgpu::jacobi::Chapter chapter(kInfo);
///   chapter.add(ch03::simple_variant(launch));   // variants in run order (and any registered statically)
///   return chapter.run(argc, argv);
/// @endcode
/// run() is the sequence of the public steps below; a chapter with a flow of its own (a window,
/// start-up timing) calls them itself. The steps: options (the Jacobi group, the backends' device
/// options) -> parse -> open the backends of the chosen variants (a missing one: its variants are
/// skipped, with the reason) -> header -> the grid must fit host and devices -> limits measured
/// now, one per backend and read:write mix -> assembly, λmax, the double-precision reference ->
/// each variant: reset (untimed), iterations (timed), solution, verification -> tables, then/now,
/// --dump, --csv, --json -> exit code.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "gpgpu/experiment.hpp"
#include "gpgpu/jacobi/options.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "gpgpu/jacobi/spectral.hpp"

namespace gpgpu::jacobi {

/// How a chapter differs from the default run.
struct ChapterSettings {
  CliDefaults cli{};
  QuickSizes quick{};
  /// Host bytes per node the chapter's solvers add (layouts, read-back copies) beyond the run's own
  /// ~80 B: the memory check refuses a grid the host cannot hold.
  double host_bytes_per_node = 0;
  /// Chapter 01's CPU timed on the same system for the speedup columns of the GPU chapters
  /// (adds --cpu-sample-iters); empty: no CPU comparison.
  std::function<CpuBaseline(const LinearSystem&, int sample_iters)> cpu_baseline{};
  /// Offer --sweep (the paper's width sweep, Fig. 19 and Tables 1-2; chapters 03-06).
  bool width_sweep = false;
  /// Paper 000 implementations whose figures join the then/now table besides those the variants
  /// name ("CPU" for a chapter that compares with the paper's CPU).
  std::vector<std::string> then_also{};
};

class Chapter {
 public:
  explicit Chapter(ChapterInfo info, ChapterSettings settings = {});
  ~Chapter();

  [[nodiscard]] Cli& cli() { return experiment_.cli(); }
  [[nodiscard]] Experiment& experiment() { return experiment_; }
  [[nodiscard]] const Options& options() const { return options_; }

  /// Adds a variant; its backend's options join the command line.
  void add(VariantSpec spec);

  /// Adds paper 000's figures of `implementation` to the then/now table, as
  /// ChapterSettings::then_also does, for a chapter that learns what it compares with only after
  /// open() (chapter 08: an OpenCL device that turns out to be the CPU is compared with "CPU").
  void add_then(std::string implementation) { settings_.then_also.push_back(std::move(implementation)); }

  /// The whole run (the steps below); returns the exit code.
  int run(int argc, char** argv);

  // ---- the steps of run() ----
  /// Adds the statically registered variants, the Jacobi and backend options, and parses.
  void parse(int argc, const char* const* argv);
  /// Prints the header, opens the backends of the chosen variants; returns those that can run
  /// here, in order (the others are reported as skipped, with the reason).
  std::vector<const VariantSpec*> open(std::ostream& out);
  /// Refuses (UsageError) a grid that a variant's device cannot hold.
  void check_fits(const std::vector<const VariantSpec*>& variants);
  /// Measures and prints the limit of every backend and mix the variants need.
  void measure_limits(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  /// Assembles the system, estimates λmax(D⁻¹A), runs the reference (unless --no-verify).
  void prepare(std::ostream& out);
  /// One variant: build, tune, warm-up and timed runs, verification; prints its line, keeps its row.
  const ResultRow& run_variant(std::ostream& out, const VariantSpec& spec);
  /// Speedup table (with a CPU baseline), then/now, --dump, --csv, --json; the exit code.
  int finish(std::ostream& out);

  [[nodiscard]] const LinearSystem& system() const { return system_; }
  [[nodiscard]] std::span<const float> initial_guess() const { return x0_; }
  [[nodiscard]] std::span<const double> reference() const { return reference_; }
  [[nodiscard]] const SpectralEstimate& spectrum() const { return spectrum_; }
  /// The limit a variant is judged against (measure_limits() first).
  [[nodiscard]] Limit limit_of(const VariantSpec& spec);
  /// The open session of a variant's backend.
  [[nodiscard]] Session& session_of(const VariantSpec& spec) { return experiment_.session_of(spec.info); }

 private:
  ChapterSettings settings_;
  Experiment experiment_;
  Options options_;
  Registry registry_;
  std::string sweep_;        // --sweep mode, "" for the result table
  int cpu_sample_iters_ = 3;  // --cpu-sample-iters
  LinearSystem system_;
  SpectralEstimate spectrum_;
  std::vector<float> x0_;
  std::vector<double> reference_;
  double reference_seconds_ = 0;
  std::vector<std::pair<std::string, std::vector<float>>> solutions_;  // kept for --dump
  std::vector<std::string> paper_names_;                               // of the variants that ran
  std::unique_ptr<CpuBaseline> baseline_;
};

}  // namespace gpgpu::jacobi
