/// @file chapter.hpp
/// @brief One run of a matrix chapter, whatever backends its variants use.
///
/// The steps, as for every chapter: options (the matrix group, the backends' device options) ->
/// parse -> open the backends of the chosen variants -> the operands must fit host and devices ->
/// limits measured now, per backend and read:write mix -> random operands of both signs and the
/// CPU references -> each variant: upload (untimed, output poisoned), calls (timed on the device),
/// download, exact comparison; then the same once more timed from the host with its copies (paper
/// 003's times include them) -> tables, then/now, --dump, --csv, --json -> exit code.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "gpgpu/experiment.hpp"
#include "gpgpu/matrix/kernel.hpp"
#include "gpgpu/matrix/options.hpp"

namespace gpgpu::matrix {

struct ChapterSettings {
  CliDefaults cli{};
  Shape default_shape{4096, 4096};  ///< the paper's largest size
  QuickSizes quick{};
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

  /// The whole run (the steps below); returns the exit code.
  int run(int argc, char** argv);

  // ---- the steps of run() ----
  void parse(int argc, const char* const* argv);
  std::vector<const VariantSpec*> open(std::ostream& out);
  void check_fits(const std::vector<const VariantSpec*>& variants);
  void measure_limits(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  /// Generates A and B, computes the references of every operation the chosen variants perform.
  void prepare(std::ostream& out, const std::vector<const VariantSpec*>& variants);
  const ResultRow& run_variant(std::ostream& out, const VariantSpec& spec);
  int finish(std::ostream& out);

  [[nodiscard]] const Inputs& inputs() const { return inputs_; }
  [[nodiscard]] Limit limit_of(const VariantSpec& spec);
  [[nodiscard]] Session& session_of(const VariantSpec& spec);

 private:
  ChapterSettings settings_;
  Experiment experiment_;
  Options options_;
  Registry registry_;
  Inputs inputs_;
  std::map<Op, HostMatrix> references_;
  std::vector<std::pair<std::string, HostMatrix>> results_;  // kept for --dump
};

}  // namespace gpgpu::matrix
