/// @file experiment.hpp
/// @brief One run of a chapter, whatever its problem: the command line, the backends its variants
/// need, the limits measured in the same run, a verified row per variant, and the outputs.
///
/// gpgpu::Chapter (chapter.hpp) drives it in this order:
/// @code
///   gpgpu::Experiment exp(info);
///   exp.use(gpgpu::cuda::opener);                 // once per backend a variant needs: adds --device
///   jacobi::add_options(exp.cli(), options);      // the problem's option group
///   exp.parse(argc, argv, registry.names());      // usage errors: exit 2
///   exp.print_header(std::cout, problem_line);
///   exp.open_variants(std::cout, chosen, why_not);  // sessions; a missing one: its variants skipped
///   ... assemble, reference ...
///   exp.record(std::cout, row);                   // per variant, after its verification
///   return exp.finish(std::cout, columns, then);  // tables, CSV, JSON; exit code 0 or 1
/// @endcode
#pragma once
#include <algorithm>
#include <functional>
#include <iosfwd>
#include <optional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/backend.hpp"
#include "gpgpu/cli.hpp"
#include "gpgpu/dump.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/variant.hpp"
#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"

namespace gpgpu {

/// Who is running: printed in the header and stored in the JSON.
struct ChapterInfo {
  std::string id;       ///< "01"
  std::string program;  ///< executable name
  std::string title;    ///< one line
  std::string paper;    ///< which paper and section the chapter retells
};

/// The version of the JSON results this code writes (scripts read it to refuse what they cannot parse).
inline constexpr int kResultSchemaVersion = 2;

class Experiment {
 public:
  explicit Experiment(ChapterInfo info, CliDefaults defaults = {});
  ~Experiment();

  [[nodiscard]] Cli& cli() { return cli_; }
  [[nodiscard]] const ChapterInfo& info() const { return info_; }
  [[nodiscard]] const CoreOptions& options() const { return cli_.options(); }

  /// Declares a backend some variant runs on; its opener adds its options (once per backend).
  void use(OpenerFactory factory);
  /// Declares a backend this executable was built without: open() gives its reason.
  void not_built(NotBuilt note);

  /// Parses the command line; `variant_names` are the choices of --variant, in run order, `in_all`
  /// those "all" selects (empty: every one). With --dump, checks its folder (DumpFolder).
  const CoreOptions& parse(int argc, const char* const* argv, std::vector<std::string> variant_names,
                           std::vector<std::string> in_all = {});

  /// Opens the sessions of `needed` (in order, each once) and prints each one's device block. A
  /// backend that is missing here is reported in one line and left closed; when none of `needed`
  /// opens, throws BackendUnavailable (exit 77) naming the first reason.
  void open(std::ostream& out, const std::vector<Backend>& needed);

  /// The `chosen` variants that can run here, in order: opens their backends (open()), skips, with
  /// the reason, those whose backend is missing and those that `limitation(variant, session)` (an
  /// std::optional<std::string>) rules out on this device; a limitation of a variant the user named
  /// with --variant is a usage error instead.
  template <class V, class Limitation>
  std::vector<const V*> open_variants(std::ostream& out, const std::vector<const V*>& chosen, Limitation&& limitation) {
    print_not_built(out);
    std::vector<Backend> backends;
    for (const V* v : chosen)
      if (std::find(backends.begin(), backends.end(), v->info.backend) == backends.end()) backends.push_back(v->info.backend);
    open(out, backends);
    std::vector<const V*> runnable;
    for (const V* v : chosen) {
      Session* s = session(v->info.backend);
      if (s == nullptr) {
        skip(out, v->info.name, std::string(backend_name(v->info.backend)) + " missing: " + absent_reason(v->info.backend));
        continue;
      }
      if (const std::optional<std::string> why = limitation(*v, *s)) {
        if (cli_.named(v->info.name)) throw UsageError("--variant " + v->info.name + ": " + *why);
        skip(out, v->info.name, *why);
        continue;
      }
      runnable.push_back(v);
    }
    return runnable;
  }

  /// Prints a line for each backend this executable was built without (not_built()), with the reason.
  void print_not_built(std::ostream& out) const;

  /// The open session of `b`, or nullptr when it is missing (absent_reason() says why).
  [[nodiscard]] Session* session(Backend b);
  [[nodiscard]] std::string absent_reason(Backend b) const;
  /// The open session of a runnable variant's backend; std::logic_error when it is not open (only
  /// what open_variants() returned may run).
  [[nodiscard]] Session& session_of(const VariantInfo& v);

  /// A row for variant `v` with what every row says about its variant: name, backend, description,
  /// source, paper name, timer and device ("CPU, 4 threads" for a CPU variant on v.threads threads,
  /// 0 = the session's count).
  [[nodiscard]] ResultRow row_for(const VariantInfo& v);

  /// Chapter, paper, host, build and the problem's own line.
  void print_header(std::ostream& out, const std::string& problem) const;

  /// The limit of `mix` on backend `b`'s device, measured in this run (each mix once).
  Limit limit(Backend b, const StreamMix& mix);
  /// Prints "Limit:    <backend>, <what>: " and describe_limit(l) (limit_rule.hpp), each distinct
  /// line once per run (many variants share a limit).
  void print_limit(std::ostream& out, Backend b, const std::string& what, const Limit& l);

  /// Keeps a variant that could not run (its backend missing), for the summary and the JSON.
  void skip(std::ostream& out, const std::string& variant, const std::string& reason);

  /// Prints the row's launch (where it has one) and verdict lines and keeps the row (after its
  /// verification).
  const ResultRow& record(std::ostream& out, ResultRow row);
  [[nodiscard]] const std::vector<ResultRow>& rows() const { return rows_; }
  /// Lets the problem add to its rows what it can only know once every row is in (the roofline's
  /// compute ceiling, raised by a routine that beat the FMA kernel); the limits are settled again.
  void amend_rows(const std::function<void(ResultRow&)>& amend);

  /// The folder of --dump, or nullptr without it: every .npy file of the run is written through it.
  [[nodiscard]] DumpFolder* dump() { return dump_ ? &*dump_ : nullptr; }

  /// Adds a section to the JSON (the problem's parameters, a chapter's extra tables).
  void add_json(const std::string& key, nlohmann::json value);

  /// What every JSON file of a run begins with: its schema and version, the chapter, the command
  /// line, the revision and host, and every backend's device or the reason it is missing.
  [[nodiscard]] nlohmann::json json_header(const std::string& schema) const;
  /// Writes `j` to `path` (UsageError when it cannot).
  static void write_json(const std::string& path, const nlohmann::json& j);

  /// Prints the result table (with the problem's extra columns) and the then/now table, writes
  /// --csv and --json, completes the --dump folder (DumpFolder::finish), prints PASS/FAIL and
  /// returns the exit code: 0 when every variant that was checked passed, 1 otherwise.
  int finish(std::ostream& out, const std::vector<Column>& extra, const ThenNowTable& then);

 private:
  void settle_row_limits();
  ChapterInfo info_;
  Cli cli_;
  std::vector<std::unique_ptr<BackendOpener>> openers_;
  std::map<Backend, std::unique_ptr<Session>> sessions_;
  std::map<Backend, std::string> absent_;
  std::vector<NotBuilt> not_built_;
  std::vector<std::pair<std::string, std::string>> skipped_;
  std::vector<ResultRow> rows_;
  std::vector<std::string> printed_limits_;
  nlohmann::json extra_json_ = nlohmann::json::object();
  std::optional<DumpFolder> dump_;
};

}  // namespace gpgpu
