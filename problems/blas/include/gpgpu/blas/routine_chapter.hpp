/// @file routine_chapter.hpp
/// @brief One run of paper 001's benchmark (chapter 12), whatever backends its variants use.
///
/// options -> parse -> open the backends of the chosen variants -> each backend's two ceilings,
/// measured now: the FP32 FMA peak (a kernel that does nothing else) and the stream bandwidth of
/// the largest routine's working set -> per routine: random operands of both signs and the FP64
/// reference with its error bound -> each variant of the routine: upload, one call (host clock),
/// the result against the bound element by element, the timed calls on the device's clock
/// (GFLOP/s, GB/s, % of the limit measured with the routine's read:write mix, % of the FMA peak,
/// % of the library), then upload + one call + download on the host's clock (the paper's
/// "GPU w. TX") -> tables: results, the roofline (both ceilings and every routine's point), the
/// paper's Table 1 rebuilt from the measurements, the paper's machines beside ours -> --dump,
/// --csv, --json -> exit code.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "gpgpu/blas/kernel.hpp"
#include "gpgpu/blas/roofline.hpp"
#include "gpgpu/blas/routine_kernel.hpp"
#include "gpgpu/blas/routine_options.hpp"
#include "gpgpu/experiment.hpp"

namespace gpgpu::blas {

class RoutineChapter {
 public:
  explicit RoutineChapter(ChapterInfo info);
  ~RoutineChapter();

  [[nodiscard]] Cli& cli() { return experiment_.cli(); }
  [[nodiscard]] Experiment& experiment() { return experiment_; }
  [[nodiscard]] const RoutineOptions& options() const { return options_; }

  void add(RoutineVariant variant);
  /// The whole run; returns the exit code.
  int run(int argc, char** argv);

 private:
  void parse(int argc, const char* const* argv);
  std::vector<const RoutineVariant*> open(std::ostream& out);
  void measure_ceilings(std::ostream& out, const std::vector<const RoutineVariant*>& variants);
  void run_routine(std::ostream& out, Routine routine, const std::vector<const RoutineVariant*>& variants);
  void run_variant(std::ostream& out, const RoutineVariant& v, const Case& c, const Expected& expected);
  /// Raises a backend's FMA peak to the best verified routine that beat it (the limit rule).
  void settle_peaks(std::ostream& out);
  int finish(std::ostream& out);
  Session& session_of(const RoutineVariant& v) { return experiment_.session_of(v.info); }

  Experiment experiment_;
  RoutineOptions options_;
  RoutineRegistry registry_;
  std::map<Backend, Ceilings> ceilings_;
};

}  // namespace gpgpu::blas
