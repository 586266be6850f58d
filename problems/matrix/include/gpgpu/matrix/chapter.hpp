/// @file chapter.hpp
/// @brief One run of a matrix chapter, whatever backends its variants use.
///
/// The steps, as for every chapter: options (the matrix group, the backends' device options) ->
/// parse -> open the backends of the chosen variants -> the operands must fit host and devices ->
/// limits measured now, per backend and read:write mix -> random operands of both signs and the
/// CPU references -> each variant: upload (untimed, output poisoned), one call timed on the host
/// (the first call pays for lazy loading), calls (timed on the device), download, exact
/// comparison; then the same once more timed from the host with its copies (paper 003's times
/// include them) -> tables (results, start-up of each API, one port over its original,
/// then/now), --dump, --csv, --json -> exit code. With ChapterSettings::sweep the chapter offers
/// --sweep, paper 003's n = 16 ... 4096 (sweep.hpp), instead of the single size.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "gpgpu/experiment.hpp"
#include "gpgpu/matrix/kernel.hpp"
#include "gpgpu/matrix/options.hpp"
#include "gpgpu/matrix/report.hpp"

namespace gpgpu::matrix {

struct ChapterSettings {
  CliDefaults cli{};
  Shape default_shape{4096, 4096};  ///< the paper's largest size
  QuickSizes quick{};
  bool sweep = false;               ///< offer --sweep paper|wide (sweep.hpp)
};

/// What one variant measured on the run's operands.
struct Measurement {
  std::vector<double> samples;        ///< seconds of each timed run of --calls calls (the kernel's own clock)
  double first_call_s = 0;            ///< host clock: the first call after the upload
  std::vector<double> with_copies_s;  ///< host clock: upload + one call + download, per repetition
  HostMatrix result;                  ///< downloaded after the timed runs
  Verification check;                 ///< result against the CPU reference
  std::string launch;                 ///< Kernel::launch()
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

  /// The whole run (the steps below, or the sweep); returns the exit code.
  int run(int argc, char** argv);

  // ---- the steps of run() ----
  void parse(int argc, const char* const* argv);
  std::vector<const VariantSpec*> open(std::ostream& out);
  void check_fits(const std::vector<const VariantSpec*>& variants);
  void measure_limits(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  /// make_inputs() and a line saying how long the references took.
  void prepare(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  const ResultRow& run_variant(std::ostream& out, const VariantSpec& spec);
  int finish(std::ostream& out);

  // ---- the parts the steps (and the sweep) are made of ----
  /// The shape of the next operands (the sweep sets each n x n).
  void set_shape(Shape shape) { options_.shape = shape; }
  /// Generates A and B of the current shape; with verification on, computes the references of
  /// every operation the chosen variants perform. Returns the seconds the references took.
  double make_inputs(const std::vector<const VariantSpec*>& variants);
  /// Builds the variant's kernel for the current operands and measures it (see Measurement).
  Measurement measure(const VariantSpec& spec);

  [[nodiscard]] const Inputs& inputs() const { return inputs_; }
  [[nodiscard]] Limit limit_of(const VariantSpec& spec);
  [[nodiscard]] Session& session_of(const VariantSpec& spec) { return experiment_.session_of(spec.info); }
  /// The variant called `name` (std::out_of_range when there is none).
  [[nodiscard]] const VariantSpec& spec(const std::string& name) const { return registry_.at(name); }
  /// The --sweep mode, "" for a single size.
  [[nodiscard]] const std::string& sweep_mode() const { return sweep_; }

 private:
  /// Every recorded port beside its recorded original (VariantSpec::ports).
  [[nodiscard]] std::vector<PortRatio> port_ratios() const;

  ChapterSettings settings_;
  Experiment experiment_;
  Options options_;
  Registry registry_;
  Inputs inputs_;
  std::map<Op, HostMatrix> references_;
  std::vector<std::pair<std::string, HostMatrix>> results_;  // kept for --dump
  std::string sweep_;
};

}  // namespace gpgpu::matrix
