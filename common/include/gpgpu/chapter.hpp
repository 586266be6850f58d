/// @file chapter.hpp
/// @brief The life of every chapter's run, written once for every problem.
///
/// A chapter's main() names its variants in the order they run and hands over:
/// @code
///   gpgpu::jacobi::Chapter chapter(kInfo);              // gpgpu::Chapter<gpgpu::jacobi::Problem>
///   chapter.add(gpgpu::jacobi::cuda::simple_variant(launch));
///   return chapter.run(argc, argv);
/// @endcode
/// run() is, for every problem:
///  1. options: the core's, the problem's group, each backend's device options; parse (exit 2 on bad input);
///  2. header: chapter, paper, host, the problem's line;
///  3. open the backends of the chosen variants: one that is missing, or a variant this device
///     cannot run, is skipped with the reason (exit 77 when nothing can run); sizes that do not fit
///     a device are refused (exit 2) before any long work starts;
///  4. the limits that judge the variants, measured now (a stream kernel of the same read:write
///     mix and working set; the FMA peak);
///  5. the inputs and the CPU reference;
///  6. per variant: build, time, verify, then print its verdict and keep its row;
///  7. the problem's tables, the result table, then/now, --csv, --json; exit 0, or 1 on a FAIL
///     (a variant's, or one of the problem's own checks: Report::failure).
/// With --sweep (a problem that offers one) steps 5 and 6 repeat for every size instead, and the
/// problem reports the points. The steps are public, for a chapter with a flow of its own (a
/// window to draw in, programs to build before the timing).
///
/// What differs between problems is the Problem below: its options, its sizes, how it prepares its
/// inputs and reference, how it measures one variant, what it reports.
#pragma once
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/profile_range.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu {

/// What a problem adds to the tables at the end of a run.
struct Report {
  std::vector<Column> columns;  ///< extra columns of the result table
  ThenNowTable then_now;        ///< the paper's figures beside this run's
  /// A check of the problem's own that failed, whatever the variants did (chapter 11: the
  /// reference breaks a physics law), or "": printed after the verdict, and the run exits 1.
  std::string failure{};
};

/// What a problem supplies to a chapter's run: everything that differs from one problem to the
/// next. V is the problem's variant type (a gpgpu::Variant with the problem's fields). A problem
/// class also names `Settings`, what a chapter may change about it, and takes them in its
/// constructor.
template <class V>
class Problem {
 public:
  using Variant = V;
  using Size = typename V::Size;
  virtual ~Problem() = default;

  /// The defaults of --repeat and --warmup for this problem's chapters.
  [[nodiscard]] virtual CliDefaults cli_defaults() const { return {}; }
  /// Adds the problem's option group (and --sweep where it offers one) to the command line.
  virtual void add_options(Cli& cli) = 0;
  /// After parsing: finishes the options (the --quick sizes) and refuses (UsageError) what the
  /// host cannot hold.
  virtual void parsed(Experiment& run) = 0;
  /// The header's "Problem:" line.
  [[nodiscard]] virtual std::string describe() const = 0;
  /// The size the variants' check_fits and limitation judge (a sweep's largest).
  [[nodiscard]] virtual Size size() const = 0;
  /// Narrows (and may reorder) the variants --variant chose, before the header is printed, so that
  /// describe() can say what the run does (chapter 12's --routine, and the routines of the variants
  /// named alone); by default keeps them all, in order.
  [[nodiscard]] virtual std::vector<const V*> select(const Experiment& run, std::vector<const V*> chosen) {
    (void)run;
    return chosen;
  }

  /// Measures and prints the limits that judge `variants`.
  virtual void measure_limits(Experiment& run, std::ostream& out, const std::vector<const V*>& variants) = 0;
  /// Builds the inputs of the current size and, unless --no-verify, the CPU reference.
  virtual void prepare(Experiment& run, std::ostream& out, const std::vector<const V*>& variants) = 0;
  /// One variant on the current inputs: build, time, verify. Returns its row (run.row_for(), the
  /// samples, work, limit and verification filled in); the chapter prints and keeps it.
  virtual ResultRow measure(Experiment& run, std::ostream& out, const V& variant) = 0;
  /// The problem's own tables and JSON sections once every row is in; the result table's extras.
  virtual Report report(Experiment& run, std::ostream& out) = 0;

  // ---- a problem that offers --sweep ----
  /// The sizes --sweep chose, smallest first; empty when the run is not a sweep.
  [[nodiscard]] virtual std::vector<Size> sweep_sizes(const CoreOptions& core) const {
    (void)core;
    return {};
  }
  /// Makes `size` the current size: what prepare() and measure() work on next.
  virtual void set_size(const Size& size) { (void)size; }
  /// "n = 512", "width 508": the current size in the sweep's progress lines.
  [[nodiscard]] virtual std::string size_label() const { return {}; }
  /// The sweep's first line (what it runs, how each point is checked).
  virtual void begin_sweep(Experiment& run, std::ostream& out) {
    (void)run;
    (void)out;
  }
  /// Called after every size with the points so far (their limits settled): a problem that saves
  /// as it goes leaves what it measured when a long sweep is stopped part way.
  virtual void save_sweep(Experiment& run, const std::vector<ResultRow>& points, bool complete) {
    (void)run;
    (void)points;
    (void)complete;
  }
  /// The sweep's tables and files; returns the exit code (print_verdict()).
  virtual int end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) {
    save_sweep(run, points, true);
    const int code = print_verdict(out, points, "sweep points", run.options().verify);
    out << "\n";
    return code;
  }
};

/// One run of a chapter of problem P (a gpgpu::Problem): the lifecycle above.
template <class P>
class Chapter {
 public:
  using Variant = typename P::Variant;
  using Size = typename P::Size;

  /// The problem is built from this chapter's settings for it (P::Settings).
  explicit Chapter(ChapterInfo info, typename P::Settings settings = {})
      : problem_(std::move(settings)), experiment_(std::move(info), problem_.cli_defaults()) {}

  [[nodiscard]] Cli& cli() { return experiment_.cli(); }
  [[nodiscard]] Experiment& experiment() { return experiment_; }
  [[nodiscard]] P& problem() { return problem_; }
  [[nodiscard]] const Variant& variant(std::string_view name) const { return registry_.at(name); }

  /// Adds a variant (its backend's options join the command line), a list of them, or the note
  /// of a backend this executable was built without.
  void add(Variant v) {
    experiment_.use(v.opener);
    registry_.add(std::move(v));
  }
  void add(std::vector<Variant> variants) {
    for (Variant& v : variants) add(std::move(v));
  }
  void add(NotBuilt note) { experiment_.not_built(std::move(note)); }

  /// What a chapter whose variants run more than once makes of the chosen ones that can run here:
  /// the runs, in order (chapter 01: an OpenMP variant once per --threads count).
  using RunsOf = std::function<std::vector<Variant>(std::ostream& out, const std::vector<const Variant*>& chosen)>;

  /// The whole run; returns the exit code. With `runs_of`, the chosen variants are replaced by the
  /// runs it makes of them before anything is measured.
  int run(int argc, char** argv, const RunsOf& runs_of = {}) {
    parse(argc, argv);
    std::ostream& out = std::cout;
    std::vector<const Variant*> variants = open(out);
    std::vector<Variant> runs;  // what `variants` points into, when runs_of made them
    if (runs_of) {
      runs = runs_of(out, variants);
      variants.clear();
      for (const Variant& v : runs) variants.push_back(&v);
    }
    if (const std::vector<Size> sizes = problem_.sweep_sizes(experiment_.options()); !sizes.empty())
      return sweep(out, variants, sizes);
    measure_limits(out, variants);
    prepare(out, variants);
    out << "Verification:\n";
    for (const Variant* v : variants) run_variant(out, *v);
    return finish(out);
  }

  // ---- the steps of run() ----
  /// The problem's options, then the command line (usage errors: exit 2).
  void parse(int argc, const char* const* argv) {
    problem_.add_options(cli());
    experiment_.parse(argc, argv, registry_.names(), registry_.names_in_all());
    problem_.parsed(experiment_);
  }
  /// Prints the header, opens the backends of the chosen variants and returns those that can run
  /// here, in order (the others are reported as skipped, with the reason); refuses a size that a
  /// variant's device cannot hold.
  std::vector<const Variant*> open(std::ostream& out) {
    std::vector<const Variant*> chosen;
    for (const std::string& name : experiment_.options().variants) chosen.push_back(&registry_.at(name));
    chosen = problem_.select(experiment_, std::move(chosen));
    experiment_.print_header(out, problem_.describe());
    const Size size = problem_.size();
    const std::vector<const Variant*> runnable = experiment_.open_variants(
        out, chosen,
        [&size](const Variant& v, Session& s) { return v.limitation ? v.limitation(size, s) : std::nullopt; });
    for (const Variant* v : runnable)
      if (v->check_fits) v->check_fits(size, experiment_.session_of(v->info));
    return runnable;
  }
  void measure_limits(std::ostream& out, const std::vector<const Variant*>& variants) {
    problem_.measure_limits(experiment_, out, variants);
  }
  void prepare(std::ostream& out, const std::vector<const Variant*>& variants) {
    problem_.prepare(experiment_, out, variants);
  }
  /// One variant measured, its verdict printed, its row kept.
  const ResultRow& run_variant(std::ostream& out, const Variant& v) {
    const ProfileRange range(v.info.name);  // what scripts/profile.sh profiles of this variant
    return experiment_.record(out, problem_.measure(experiment_, out, v));
  }
  /// The problem's tables, the result table, then/now, --csv, --json; the exit code.
  int finish(std::ostream& out) {
    const Report report = problem_.report(experiment_, out);
    const int code = experiment_.finish(out, report.columns, report.then_now);
    if (report.failure.empty()) return code;
    out << "FAIL: " << report.failure << "\n";
    return kExitVerificationFailed;
  }

  /// Every variant at every size: each point prepared, measured and verified like a row; a
  /// variant this device cannot run at some size is skipped there, with the reason.
  int sweep(std::ostream& out, const std::vector<const Variant*>& variants, const std::vector<Size>& sizes) {
    problem_.begin_sweep(experiment_, out);
    std::vector<ResultRow> points;
    for (const Size& size : sizes) {
      problem_.set_size(size);
      std::ostringstream detail;  // the reference's and the launches' lines: one line per size instead
      problem_.prepare(experiment_, detail, variants);
      out << "  " << problem_.size_label() << ":" << std::flush;
      for (const Variant* v : variants) {
        if (v->limitation)
          if (const std::optional<std::string> why = v->limitation(size, experiment_.session_of(v->info))) {
            out << " " << v->info.name << " (skipped: " << *why << ")";
            continue;
          }
        {
          const ProfileRange range(v->info.name);
          points.push_back(problem_.measure(experiment_, detail, *v));
        }
        const Verification& check = points.back().check;
        out << " " << v->info.name << (check.checked && !check.pass ? " FAIL" : "") << std::flush;
      }
      out << "\n";
      settle_limits(points);
      problem_.save_sweep(experiment_, points, false);
    }
    return problem_.end_sweep(experiment_, out, points);
  }

 private:
  P problem_;
  Experiment experiment_;
  Registry<Variant> registry_;
};

}  // namespace gpgpu
