/// @file chapter.hpp
/// @brief One run of a matrix-multiply chapter, whatever backends its variants use.
///
/// options -> parse -> open the backends of the chosen variants -> the operands must fit host and
/// devices -> each backend's FMA peak, measured now -> random A and B of both signs and the FP64
/// reference with |A||B| -> each variant: upload (C poisoned), one call timed on the host (lazy
/// loading, JIT), the timed calls on the device's clock, download, the bound γ_k|A||B| element by
/// element; then the operands up, one call and C down on the host's clock (the paper's kind of
/// time) -> tables (results with % of the FMA peak and % of the vendor library, start-up of each
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

/// What one variant measured on the run's operands.
struct Measurement {
  std::vector<double> samples;        ///< seconds of each timed run of --calls calls (device clock)
  double first_call_s = 0;            ///< host clock: the first call after the upload
  std::vector<double> with_copies_s;  ///< host clock: upload + one call + download
  HostMatrix result;
  Verification check;
  std::string launch;
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
  Measurement measure(const VariantSpec& spec);
  [[nodiscard]] Session& session_of(const VariantSpec& spec);
  /// The FMA peak of the variant's backend for the run's type (NaN GFLOP/s where none is registered).
  [[nodiscard]] const Peak& peak_of(const VariantSpec& spec) const;
  /// `gflops` over that peak; NaN for a variant on tensor cores, which the FMA kernel does not bound.
  [[nodiscard]] double peak_share(const VariantSpec& spec, double gflops) const;
  [[nodiscard]] const std::string& sweep_mode() const { return sweep_; }

 private:
  void measure_peaks(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  const ResultRow& run_variant(std::ostream& out, const VariantSpec& spec);
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
