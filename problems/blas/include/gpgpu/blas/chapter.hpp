/// @file chapter.hpp
/// @brief The matrix-multiply problem (chapter 10) as the core's chapter run sees it
/// (gpgpu/chapter.hpp).
///
/// What is the multiply's own: the group --n --m --k --type --calls --tune (and --sweep, paper
/// 003's sizes); the operands must fit the host; each backend's FMA peak measured now (the variant
/// says how); random A and B of both signs and the FP64 reference with |A||B|; per variant: upload
/// (C poisoned), one call timed on the host (lazy loading, JIT), with --tune every compiled
/// configuration of a kernel verified then timed, the timed calls on the device's clock, download,
/// the bound γ_k|A||B| element by element, then the operands up, one call and C down on the host's
/// clock (the paper's kind of time); then % of the FMA peak and % of the vendor library, the
/// start-up of each API, each port over its original, paper 003's times beside ours, --dump.
/// --sweep runs paper 003's n = 16 ... 4096 (and 8192) instead (sweep.cpp).
#pragma once
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/blas/operation.hpp"
#include "gpgpu/blas/options.hpp"
#include "gpgpu/chapter.hpp"

namespace gpgpu::blas {

/// One configuration of a kernel that --tune tried: verified first, timed only if it passed.
struct TuneTrial {
  std::string configuration;
  Verification check;
  double gflops = 0;  ///< median of --repeat runs of --calls calls; NaN when it failed its check
};

/// The variants of a run by name (the report looks up what a row ports and how it is judged).
using VariantsByName = std::map<std::string, const GemmVariant*>;

class GemmProblem final : public gpgpu::Problem<GemmVariant> {
 public:
  struct Settings {};
  explicit GemmProblem(Settings settings = {});

  void add_options(Cli& cli) override;
  void parsed(Experiment& run) override;
  [[nodiscard]] std::string describe() const override;
  /// The run's size, or the sweep's largest.
  [[nodiscard]] GemmSize size() const override;
  [[nodiscard]] std::vector<const GemmVariant*> select(const Experiment& run, std::vector<const GemmVariant*> chosen) override;
  /// Each backend's FMA peak, once, for the backends of `variants` (that opened) that say how.
  void measure_limits(Experiment& run, std::ostream& out, const std::vector<const GemmVariant*>& variants) override;
  void prepare(Experiment& run, std::ostream& out, const std::vector<const GemmVariant*>& variants) override;
  ResultRow measure(Experiment& run, std::ostream& out, const GemmVariant& variant) override;
  Report report(Experiment& run, std::ostream& out) override;

  // Paper 003's sizes (sweep.cpp): every point measured like a row.
  [[nodiscard]] std::vector<GemmSize> sweep_sizes(const CoreOptions& core) const override;
  void set_size(const GemmSize& size) override { options_.dims = size.dims; }
  [[nodiscard]] std::string size_label() const override { return "n = " + std::to_string(options_.dims.n); }
  void begin_sweep(Experiment& run, std::ostream& out) override;
  int end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) override;

  [[nodiscard]] const Options& options() const { return options_; }

 private:
  /// `gflops` over the peak of v's backend; NaN on tensor cores, which the FMA kernel does not bound.
  [[nodiscard]] double peak_share(const GemmVariant& v, double gflops) const;
  /// Raises each backend's peak that one of `runs` beat (settle_peak): before any share is printed.
  void settle_peaks(std::ostream& out, const std::vector<PeakRun>& runs);
  /// Each configuration of `op`: C poisoned, one call, verified, then (if it passed) timed like
  /// the run; leaves `op` configured to the fastest that passed (the first if none did).
  std::vector<TuneTrial> tune(Experiment& run, GemmOperation& op, const GemmVariant& v, std::size_t& fastest);
  /// Prints every configuration --tune tried and the one kept, adds them to the row's JSON
  /// ("tuning", "tuned") and launch, and fails the row if any configuration failed its check.
  void record_tuning(std::ostream& out, const GemmVariant& v, const std::vector<TuneTrial>& trials, std::size_t tuned,
                     ResultRow& row) const;

  Options options_;
  std::string sweep_;  // --sweep mode, "" for one size
  bool quick_ = false;
  Operands operands_;
  Reference reference_;
  /// The FP64 products of the dequantised E4M3 inputs (fp8.hpp), made at the first FP8 row of each
  /// scaling: [0] one scale per tensor, [1] block scales.
  std::optional<Reference> dequantised_reference_[2];
  /// The reference `arithmetic` is judged against: reference_, or a dequantised one (made once).
  const Reference& reference_for(Arithmetic arithmetic, std::ostream& out);
  std::map<Backend, Peak> peaks_;
  std::vector<const GemmVariant*> chosen_;  // what --variant chose, in order
  VariantsByName variants_;                 // the same by name
  /// A variant's C for --dump, with the arithmetic it is judged by (check_dump.py reads it back).
  struct DumpedResult {
    std::string variant;
    Arithmetic arithmetic;
    HostMatrix c;
  };
  std::vector<DumpedResult> results_;
};

/// A run of the multiply chapter.
using GemmChapter = gpgpu::Chapter<GemmProblem>;

/// "paper": 16, 32, ..., 4096; "wide": also 8192; `quick` keeps those up to 256.
std::vector<Dims> sweep_dims(const std::string& mode, bool quick);

}  // namespace gpgpu::blas
