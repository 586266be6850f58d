/// @file chapter.hpp
/// @brief One run of the TLM chapter (11), whatever backends its variants use.
///
/// @code
///   gpgpu::tlm::Chapter chapter(kInfo);
///   chapter.add(ch11::cpu_variant(...));   // variants in run order (and any registered statically)
///   return chapter.run(argc, argv);
/// @endcode
/// The steps: options (the TLM group, the backends' device options) -> parse -> open the backends
/// of the chosen variants (a missing one: its variants are skipped, with the reason) -> header ->
/// the mesh must fit host and devices -> limits measured now, one per backend and storage (12:12
/// stream mix) -> the structure, its source and probe, the double-precision reference and the
/// physics it must obey (energy, resonances or cut-off) -> each variant: reset (untimed, outputs
/// poisoned), steps (timed), pulses and probe back, compared with the reference -> tables,
/// comparisons, then/now, --dump, --png, --csv, --json -> exit code (1 when a variant or the
/// physics fails).
#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/experiment.hpp"
#include "gpgpu/tlm/options.hpp"
#include "gpgpu/tlm/physics.hpp"
#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/solver.hpp"

namespace gpgpu::tlm {

struct ChapterSettings {
  CliDefaults cli{};
  /// Host bytes per node the chapter's solvers add beyond the run's own: the memory check refuses
  /// a mesh the host cannot hold.
  double host_bytes_per_node = 0;
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
  /// The structure, source and probe; the reference run and its physics checks (unless --no-verify).
  void prepare(std::ostream& out);
  const ResultRow& run_variant(std::ostream& out, const VariantSpec& spec);
  int finish(std::ostream& out);

  [[nodiscard]] const Problem& problem() const { return problem_; }
  [[nodiscard]] const ReferenceRun& reference() const { return reference_; }
  [[nodiscard]] const std::vector<PhysicsCheck>& physics() const { return physics_; }
  [[nodiscard]] Limit limit_of(const VariantSpec& spec);
  [[nodiscard]] Session& session_of(const VariantSpec& spec) { return experiment_.session_of(spec.info); }

 private:
  ChapterSettings settings_;
  Experiment experiment_;
  Options options_;
  Registry registry_;
  Problem problem_;
  std::vector<float> initial_;
  ReferenceRun reference_;
  double reference_seconds_ = 0;
  std::vector<PhysicsCheck> physics_;
  std::vector<std::pair<std::string, RunResult<float>>> results_;  // kept for --dump and --png
};

}  // namespace gpgpu::tlm
