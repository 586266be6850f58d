/// @file chapter.hpp
/// @brief The matrix problem of paper 003 (add, transpose, copy) as the core's chapter run sees it
/// (gpgpu/chapter.hpp).
///
/// @code
///   gpgpu::matrix::Chapter chapter(kInfo, {.sweep = true});  // gpgpu::Chapter<gpgpu::matrix::Problem>
///   chapter.add(ch09::cpu_variants());                        // variants in run order
///   return chapter.run(argc, argv);
/// @endcode
/// The problem's own: the group --n / --rows --cols, --type, --calls (and --sweep where a chapter
/// offers it); random operands of both signs and the CPU references; each variant judged by a
/// stream kernel of its read:write mix at the same size; per variant: upload (output poisoned), one
/// call on the host's clock (the first pays for lazy loading), the timed calls on the device's own
/// clock, download, exact comparison, then the paper's kind of time (copies included); then the
/// start-up of each API, each port over its original, then/now, --dump. --sweep: sweep.cpp.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/chapter.hpp"
#include "gpgpu/points.hpp"
#include "gpgpu/matrix/operation.hpp"
#include "gpgpu/matrix/options.hpp"
#include "gpgpu/matrix/report.hpp"

namespace gpgpu::matrix {

/// How a chapter differs from the default run.
struct ChapterSettings {
  CliDefaults cli{};
  Shape default_shape{4096, 4096};  ///< the paper's largest size
  QuickSizes quick{};
  bool sweep = false;               ///< offer --sweep paper|wide (sweep.cpp)
};

class Problem final : public gpgpu::Problem<Variant> {
 public:
  using Settings = ChapterSettings;
  explicit Problem(ChapterSettings settings = {}) : settings_(settings) {}

  [[nodiscard]] CliDefaults cli_defaults() const override { return settings_.cli; }
  void add_options(Cli& cli) override;
  void parsed(Experiment& run) override;
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] Size size() const override { return {options_.shape, options_.type}; }
  void measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  void prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  ResultRow measure(Experiment& run, std::ostream& out, const Variant& v) override;
  Report report(Experiment& run, std::ostream& out) override;

  // Paper 003's sizes (sweep.cpp): every point verified and timed as a row of the single run.
  [[nodiscard]] std::vector<Size> sweep_sizes(const CoreOptions& core) const override;
  void set_size(const Size& size) override { options_.shape = size.shape; }
  [[nodiscard]] std::string size_label() const override { return "n = " + std::to_string(options_.shape.rows); }
  void begin_sweep(Experiment& run, std::ostream& out) override;
  void save_sweep(Experiment& run, const std::vector<ResultRow>& points, bool complete) override;
  int end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) override;

 private:
  /// The limit that judges `v` at the current shape, measured once per mix and size.
  Limit limit_of(Experiment& run, const Variant& v) const;
  /// The variant of a row (one of those prepare() was given).
  [[nodiscard]] const Variant& variant_of(const ResultRow& row) const;
  /// Each port beside its original measured at the same n (rows of a sweep carry theirs).
  [[nodiscard]] std::vector<PortRatio> port_ratios(const std::vector<ResultRow>& rows) const;
  /// A sweep point's fields (its table row, CSV columns and JSON), the port ratios of its n among them.
  [[nodiscard]] std::vector<PointField> point_fields(const std::vector<PortRatio>& ratios) const;

  ChapterSettings settings_;
  Options options_;
  std::string sweep_;  // --sweep mode, "" for a single size
  std::vector<const Variant*> variants_;
  Inputs inputs_;
  std::map<Op, HostMatrix> references_;
  std::vector<std::pair<std::string, HostMatrix>> results_;  // kept for --dump
  std::string startup_text_;                                  // the sweep's start-up table, printed at its end
  nlohmann::json startup_;                                    // and saved with every size
};

/// A run of a matrix chapter.
using Chapter = gpgpu::Chapter<Problem>;

/// The time of a measured run with its host-device copies (the paper's kind of time), in ms.
double ms_with_copies(const ResultRow& r);

}  // namespace gpgpu::matrix
