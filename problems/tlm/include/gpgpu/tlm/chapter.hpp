/// @file chapter.hpp
/// @brief The TLM problem of chapter 11 as the core's chapter run sees it (gpgpu/chapter.hpp).
///
/// @code
///   gpgpu::tlm::Chapter chapter(kInfo);     // gpgpu::Chapter<gpgpu::tlm::Problem>
///   chapter.add(ch11::cpu_variants());      // variants in run order, one list per backend
///   chapter.add(ch11::cuda_variants());     // or a gpgpu::NotBuilt note: CUDA was not built
///   return chapter.run(argc, argv);
/// @endcode
/// What is the TLM problem's own: the group --scenario --nx --ny --nz --dl --steps --png; the mesh
/// and its probe must fit the host; each variant judged by a stream kernel of its mix (12 arrays
/// read, 12 written, in its storage); the structure, its source and probe, the double-precision
/// reference and the physics it must obey (energy, resonances or cut-off); each variant reset
/// (untimed, outputs poisoned), stepped (timed by its own clock), its pulses, probe and energy
/// compared with the reference; then the comparisons the paper makes, --dump, --png and paper
/// 002's figures beside ours. A reference that breaks physics fails the run (exit 1).
#pragma once
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/chapter.hpp"
#include "gpgpu/tlm/options.hpp"
#include "gpgpu/tlm/physics.hpp"
#include "gpgpu/tlm/reference.hpp"
#include "gpgpu/tlm/solver.hpp"

namespace gpgpu::tlm {

/// How a chapter differs from the default run.
struct ChapterSettings {
  CliDefaults cli{};
  /// Host bytes per node the chapter's solvers add beyond the run's own: the memory check refuses
  /// a mesh the host cannot hold.
  double host_bytes_per_node = 0;
};

class Problem final : public gpgpu::Problem<Variant> {
 public:
  using Settings = ChapterSettings;
  explicit Problem(ChapterSettings settings = {}) : settings_(settings) {}

  [[nodiscard]] CliDefaults cli_defaults() const override { return settings_.cli; }
  void add_options(Cli& cli) override { tlm::add_options(cli, options_); }
  void parsed(Experiment& run) override;
  [[nodiscard]] std::string describe() const override { return tlm::describe(options_); }
  [[nodiscard]] RunSize size() const override { return {options_.mesh, options_.steps}; }
  void measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  /// The structure, source and probe; the reference run and its physics checks (unless --no-verify).
  void prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) override;
  ResultRow measure(Experiment& run, std::ostream& out, const Variant& variant) override;
  /// The comparisons, the JSON sections, --dump, --png; a physics failure of the reference.
  Report report(Experiment& run, std::ostream& out) override;

 private:
  /// The limit that judges `v` on this mesh, measured once per backend and mix.
  [[nodiscard]] Limit limit_of(Experiment& run, const Variant& v) const;

  ChapterSettings settings_;
  Options options_;
  Setup setup_;
  std::vector<float> initial_;
  ReferenceRun reference_;
  double reference_seconds_ = 0;
  std::vector<PhysicsCheck> physics_;
  std::vector<std::pair<std::string, RunResult<float>>> results_;  // kept for --dump and --png
};

/// A run of the TLM chapter.
using Chapter = gpgpu::Chapter<Problem>;

}  // namespace gpgpu::tlm
