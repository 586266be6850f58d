/// @file routine_chapter.hpp
/// @brief Paper 001's benchmark (chapter 12) as the core's chapter run sees it (gpgpu/chapter.hpp).
///
/// What is the benchmark's own: the group --routine --vector --gemv-rows ... --calls; --routine
/// (or the variants --variant names alone) choose the routines, and the variants run routine by
/// routine (select()); each backend's two ceilings, measured now: the FP32 FMA peak (a kernel that
/// does nothing else; the variant says how) and the stream bandwidth of the largest routine's
/// working set; per routine, when its first variant runs: random operands of both signs and the
/// FP64 reference with its error bound; per variant: upload, one call (host clock), the result
/// against the bound element by element, the timed calls on the device's clock (GFLOP/s, GB/s, %
/// of the limit measured with the routine's read:write mix), then upload + one call + download on
/// the host's clock (the paper's "GPU w. TX"), from pageable and page-locked memory and overlapped
/// in chunks; then % of the FMA peak and of the library, the roofline (both ceilings and every
/// routine's point), the paper's Table 1 rebuilt from the measurements, the paper's machines
/// beside ours, --dump.
#pragma once
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpgpu/blas/roofline.hpp"
#include "gpgpu/blas/routine_operation.hpp"
#include "gpgpu/blas/routine_options.hpp"
#include "gpgpu/chapter.hpp"

namespace gpgpu::blas {

class RoutineProblem final : public gpgpu::Problem<RoutineVariant> {
 public:
  struct Settings {};
  explicit RoutineProblem(Settings settings = {});

  void add_options(Cli& cli) override;
  void parsed(Experiment& run) override;
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] RoutineSizes size() const override { return options_.sizes; }
  /// The variants of the routines --routine chose (a variant named outside them is a usage
  /// error), or with --variant alone the routines of the variants it names; grouped routine by
  /// routine, so that each routine's operands are made once and freed before the next's.
  [[nodiscard]] std::vector<const RoutineVariant*> select(const Experiment& run,
                                                          std::vector<const RoutineVariant*> chosen) override;
  void measure_limits(Experiment& run, std::ostream& out, const std::vector<const RoutineVariant*>& variants) override;
  /// Nothing for the run as a whole: measure() makes a routine's operands when its first variant runs.
  void prepare(Experiment& run, std::ostream& out, const std::vector<const RoutineVariant*>& variants) override;
  ResultRow measure(Experiment& run, std::ostream& out, const RoutineVariant& variant) override;
  Report report(Experiment& run, std::ostream& out) override;

  [[nodiscard]] const RoutineOptions& options() const { return options_; }

 private:
  /// The operands of `routine` and their reference (the previous routine's freed first); prints
  /// the routine's line and, with --dump, writes the operands.
  void prepare_routine(Experiment& run, std::ostream& out, Routine routine);

  RoutineOptions options_;
  bool routine_given_ = false;  // --routine on the command line
  std::map<Backend, Ceilings> ceilings_;
  std::optional<Routine> prepared_;  // the routine whose case and reference are below
  Case case_;
  Expected expected_;
};

/// A run of paper 001's benchmark.
using RoutineChapter = gpgpu::Chapter<RoutineProblem>;

}  // namespace gpgpu::blas
