/// @file chapter.hpp
/// @brief The Jacobi problem of chapters 01-08 as the core's chapter run sees it (gpgpu/chapter.hpp).
///
/// @code
///   gpgpu::jacobi::Chapter chapter(kInfo);                   // gpgpu::Chapter<gpgpu::jacobi::Problem>
///   chapter.add(gpgpu::jacobi::cuda::simple_variant(launch)); // variants in run order
///   return chapter.run(argc, argv);
/// @endcode
/// What is the Jacobi problem's own: the group --nx --ny --iters --omega (and --sweep, the paper's
/// width sweep, where a chapter offers it); the grid must fit the host; each variant judged by a
/// stream kernel of its read:write mix (11:1 for nine diagonals); the bidomain system assembled,
/// λmax(D⁻¹A) estimated, the double-precision reference run; each variant reset from the initial
/// guess (untimed), iterated (timed by its own clock), its solution compared with the reference
/// normwise; then the floor and speed-up table (with chapter 01's CPU timed on the same system),
/// --dump, and paper 000's figures beside ours.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "gpgpu/chapter.hpp"
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

class Problem final : public gpgpu::Problem<Variant> {
 public:
  using Settings = ChapterSettings;
  explicit Problem(ChapterSettings settings = {});
  ~Problem() override;

  [[nodiscard]] CliDefaults cli_defaults() const override { return settings_.cli; }
  void add_options(Cli& cli) override;
  void parsed(Experiment& run) override;
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] Grid size() const override { return options_.grid; }
  void measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  void prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  ResultRow measure(Experiment& run, std::ostream& out, const Variant& variant) override;
  Report report(Experiment& run, std::ostream& out) override;

  // The width sweep (sweep.cpp): each width verified after a few iterations, then timed.
  [[nodiscard]] std::vector<Grid> sweep_sizes(const CoreOptions& core) const override;
  void set_size(const Grid& grid) override { options_.grid = grid; }
  [[nodiscard]] std::string size_label() const override { return "width " + std::to_string(options_.grid.nx); }
  void begin_sweep(Experiment& run, std::ostream& out) override;
  int end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) override;

  /// Adds paper 000's figures of `implementation` to the then/now table, as
  /// ChapterSettings::then_also does, for a chapter that learns what it compares with only after
  /// open() (chapter 08: an OpenCL device that turns out to be the CPU is compared with "CPU").
  void add_then(std::string implementation) { settings_.then_also.push_back(std::move(implementation)); }

  [[nodiscard]] const Options& options() const { return options_; }
  [[nodiscard]] const LinearSystem& system() const { return system_; }
  [[nodiscard]] const std::vector<double>& reference() const { return reference_; }
  [[nodiscard]] const SpectralEstimate& spectrum() const { return spectrum_; }

 private:
  /// A sweep point is verified after this many iterations (the reference is cheap at that count),
  /// then timed over --iters iterations.
  static constexpr int kSweepVerifyIters = 20;
  /// The limit that judges `v` at the current grid, measured once per mix.
  Limit limit_of(Experiment& run, const Variant& v) const;
  /// A sweep point: verified after a few iterations from a nonzero guess, then timed.
  ResultRow measure_point(Experiment& run, const Variant& v);

  ChapterSettings settings_;
  Options options_;
  std::string sweep_;         // --sweep mode, "" for the result table
  int cpu_sample_iters_ = 3;  // --cpu-sample-iters
  LinearSystem system_;
  SpectralEstimate spectrum_;
  std::vector<float> x0_;
  std::vector<double> reference_;
  int reference_iters_ = 0;   // the iterations the reference ran (a sweep verifies after fewer)
  double reference_seconds_ = 0;
  std::vector<std::pair<std::string, std::vector<float>>> solutions_;  // kept for --dump
  std::unique_ptr<CpuBaseline> baseline_;
};

/// A run of a Jacobi chapter.
using Chapter = gpgpu::Chapter<Problem>;

}  // namespace gpgpu::jacobi
