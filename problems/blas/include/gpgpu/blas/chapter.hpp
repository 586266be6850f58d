/// @file chapter.hpp
/// @brief One run of a matrix-multiply chapter, whatever backends its variants use.
///
/// options -> parse -> open the backends of the chosen variants -> the operands must fit host and
/// devices -> each backend's FMA peak, measured now -> random A and B of both signs and the FP64
/// reference with |A||B| -> each variant: upload (C poisoned), one call timed on the host (lazy
/// loading, JIT), the timed calls on the device's clock, download, the bound γ_k|A||B| element by
/// element; then the operands up, one call and C down on the host's clock (the paper's kind of
/// time; with --tune first every compiled configuration of a kernel, verified, then timed) -> tables (results with % of the FMA peak and % of the vendor library, start-up of each
/// API, each port over its original, then/now), --dump, --csv, --json -> exit code. --sweep runs
/// paper 003's n = 16 ... 4096 (and 8192) instead (sweep.hpp).
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/blas/kernel.hpp"
#include "gpgpu/blas/options.hpp"
#include "gpgpu/experiment.hpp"

namespace gpgpu::blas {

/// One configuration of a kernel that --tune tried: verified first, timed only if it passed.
struct TuneTrial {
  std::string configuration;
  Verification check;
  double gflops = 0;  ///< median of --repeat runs of --calls calls; NaN when it failed its check
};

/// What one variant measured on the run's operands.
struct Measurement {
  std::vector<double> samples;        ///< seconds of each timed run of --calls calls (device clock)
  double first_call_s = 0;            ///< host clock: the first call after the upload
  std::vector<double> with_copies_s;  ///< host clock: upload + one call + download
  HostMatrix result;
  Verification check;
  std::string launch;
  std::vector<TuneTrial> tuning;  ///< --tune: every configuration tried (empty otherwise)
  std::size_t tuned = 0;          ///< the one that ran: the fastest that passed
};

class Chapter {
 public:
  explicit Chapter(ChapterInfo info);
  ~Chapter();

  [[nodiscard]] Cli& cli() { return experiment_.cli(); }
  [[nodiscard]] Experiment& experiment() { return experiment_; }
  [[nodiscard]] const Options& options() const { return options_; }

  void add(VariantSpec spec);
  /// The whole run; returns the exit code.
  int run(int argc, char** argv);

  // ---- the parts run() and the sweep are made of ----
  void parse(int argc, const char* const* argv);
  void set_dims(const Dims& d) { options_.dims = d; }
  /// New operands of the current size and, unless --no-verify, their reference; returns its seconds.
  double make_inputs();
  [[nodiscard]] const Reference& reference() const { return reference_; }
  /// --tune: a kernel with several configurations tried in each (see tune()) before the timed runs.
  Measurement measure(const VariantSpec& spec);
  [[nodiscard]] Session& session_of(const VariantSpec& spec) { return experiment_.session_of(spec.info); }
  /// The FMA peak of the variant's backend for the run's type (NaN GFLOP/s where none is registered).
  [[nodiscard]] const Peak& peak_of(const VariantSpec& spec) const;
  /// `gflops` over that peak; NaN for a variant on tensor cores, which the FMA kernel does not bound.
  [[nodiscard]] double peak_share(const VariantSpec& spec, double gflops) const;
  /// Raises each backend's peak that one of `runs` beat (settle_peak): before any share is printed.
  void settle_peaks(std::ostream& out, const std::vector<PeakRun>& runs);
  [[nodiscard]] const std::string& sweep_mode() const { return sweep_; }

 private:
  void measure_peaks(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  /// Each configuration of `kernel`: C poisoned, one call, verified, then (if it passed) timed like
  /// the run; leaves `kernel` configured to the fastest that passed (the first if none did).
  std::vector<TuneTrial> tune(Kernel& kernel, const VariantSpec& spec, std::size_t& fastest);
  const ResultRow& run_variant(std::ostream& out, const VariantSpec& spec);
  /// Prints every configuration --tune tried and the one kept, adds them to the row's JSON
  /// ("tuning", "tuned") and launch, and fails the row if any configuration failed its check.
  void record_tuning(std::ostream& out, const VariantSpec& spec, const Measurement& m, ResultRow& row) const;
  int finish(std::ostream& out);

  Experiment experiment_;
  Options options_;
  Registry registry_;
  Operands operands_;
  Reference reference_;
  std::map<Backend, Peak> peaks_;
  std::vector<std::pair<std::string, HostMatrix>> results_;  // for --dump
  std::string sweep_;
};

/// GFLOP/s of `row` over the GFLOP/s of the library row of the same arithmetic that judges it (a
/// TF32 row by the TF32 library, any other by the strict FP32 or FP64 one): the same backend's, or
/// for OpenCL the CUDA one (the same GPU's vendor library). NaN when there is none.
double library_share(const ResultRow& row, const std::vector<ResultRow>& rows);

}  // namespace gpgpu::blas
