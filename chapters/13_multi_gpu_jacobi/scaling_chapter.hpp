/// @file scaling_chapter.hpp
/// @brief Chapter 13's run, in the core's lifecycle (gpgpu/chapter.hpp): the Jacobi system of
/// chapters 01-07b, each variant verified twice (bit for bit against the one-GPU or one-process run
/// of the same kernel, and within the chapter's bound of the CPU double-precision reference), timed,
/// and its time per iteration split into compute and exchange; the efficiency T1 / (G TG) beside it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpgpu/chapter.hpp"
#include "gpgpu/jacobi/convergence.hpp"
#include "gpgpu/jacobi/options.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace ch13 {

/// A chapter 13 variant: a Jacobi variant that may be split over several parts.
struct Variant : gpgpu::jacobi::Variant {
  /// The variant whose solution this one must equal bit for bit ("one_gpu", "one_cpu"); "" for
  /// those baselines themselves. A baseline the user did not choose runs first anyway.
  std::string baseline;
};

/// Nothing a chapter changes: chapter 13 is the only one that runs this problem.
struct Settings {};

/// The measured link between two GPUs: the limit that judges the exchange.
struct PeerLink {
  bool measured = false;
  std::string name;            ///< "cudaMemcpyPeerAsync GPU 0 <-> 1, both ways at once"
  double gbs_each_way = 0;     ///< large copies, 1e9 B/s in each direction
  double row_exchange_us = 0;  ///< one row each way, both at once: the exchange's floor at this width
};

class Problem final : public gpgpu::Problem<Variant> {
 public:
  using Settings = ch13::Settings;
  /// Defaults: a 4096² grid (a size where two GPUs pay: chapter 13's README), 200 iterations.
  explicit Problem(Settings = {}) { options_ = {{4096, 4096}, 200}; }

  void add_options(gpgpu::Cli& cli) override;
  void parsed(gpgpu::Experiment& run) override;
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] gpgpu::jacobi::Grid size() const override { return options_.grid; }
  [[nodiscard]] std::vector<const Variant*> select(const gpgpu::Experiment& run, std::vector<const Variant*> chosen) override;
  void measure_limits(gpgpu::Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  void prepare(gpgpu::Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  gpgpu::ResultRow measure(gpgpu::Experiment& run, std::ostream& out, const Variant& v) override;
  gpgpu::Report report(gpgpu::Experiment& run, std::ostream& out) override;

  /// GPUs of the one-process variants (--gpus; 0: every GPU of the machine).
  [[nodiscard]] int gpus() const { return gpus_; }
  /// Where the chapter's variants are, by name: a baseline the user did not choose is added from it.
  void set_catalogue(std::function<const Variant*(const std::string&)> find) { find_ = std::move(find); }

 private:
  /// The limit of a variant split over `parts` parts: each part streams its own rows at once, so
  /// `parts` times the stream kernel's rate on one part's working set (a separate class of limit).
  gpgpu::Limit limit_of(gpgpu::Experiment& run, const Variant& v, int parts) const;

  std::function<const Variant*(const std::string&)> find_;
  /// Where the variant stopped against the reference and its baseline: appended to row.check.
  void check_stop(gpgpu::ResultRow& row, const Variant& v, const gpgpu::jacobi::Stop& stop, bool verify);

  gpgpu::jacobi::Options options_;
  gpgpu::jacobi::Convergence check_;
  int gpus_ = 0;
  gpgpu::jacobi::LinearSystem system_;
  std::vector<float> x0_;
  gpgpu::jacobi::ReferenceRun reference_;
  std::map<std::string, gpgpu::jacobi::Stop> baseline_stops_;
  PeerLink link_;
  std::map<std::string, std::vector<float>> baseline_solutions_;
  std::map<std::string, double> baseline_seconds_;  // median seconds of a baseline that ran timed
  std::vector<std::pair<std::string, std::vector<float>>> dumped_;  // --dump: every variant's solution
};

using Chapter = gpgpu::Chapter<Problem>;

/// Measures the link between GPUs 0 and 1 (cudaMemcpyPeerAsync both ways at once): large copies
/// for the bandwidth, rows of `row_bytes` for the latency of one exchange (peer_link.cpp). Not
/// measured (measured = false) with fewer than two GPUs or in a build without CUDA.
PeerLink measure_link_of_gpus_0_and_1(std::size_t row_bytes);

}  // namespace ch13
