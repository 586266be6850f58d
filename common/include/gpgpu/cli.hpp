/// @file cli.hpp
/// @brief The command line every chapter shares, parsed with CLI11, and the option groups that
/// problems and backends add to it.
///
/// The core options, whatever a chapter computes:
///
///   --variant NAME[,NAME]|all --repeat N --warmup N --csv FILE --json FILE --dump DIR
///   --no-verify --quick --help
///
/// A problem adds its group (the Jacobi group: --nx --ny --iters --omega; the matrix group:
/// --rows --cols --type ...), a backend its device options (--device, --cl-platform, --threads).
/// Bad input (non-numbers, values out of range, unknown options or variants) becomes a UsageError,
/// which run_main() prints as one line and turns into exit code 2.
///
/// CLI11 is declared here, not included: its header costs several seconds of every compile, and most
/// files that include this one never touch an option. A file that adds options includes
/// <CLI/CLI.hpp> itself.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option_group;
class Validator;
}  // namespace CLI

namespace gpgpu {

/// Validator for integer options: refuses "1.5", "1e3", "abc" and values outside [min, max] with a
/// one-line message. Use it for every integer option (sizes, block sizes, thread counts, indices).
CLI::Validator integer_in_range(long long min, long long max = 2147483647);

/// Validator for output files: refuses, at start-up, a path that cannot be written
/// (output_path_problem: empty, a folder, a missing or read-only folder, a device), so that a long
/// run does not fail at its end.
CLI::Validator writable_path();

/// Validator for an output folder (--dump): refuses an empty path, a file, a folder that cannot be
/// written or created (output_folder_problem).
CLI::Validator writable_folder();

/// The most --repeat and --warmup accept: each timed run keeps its time (8 bytes, and about 25 in the
/// JSON) per variant, so 100000 runs of each variant stay within a few MB, where 2^31 reserved 16 GiB.
inline constexpr int kMaxRepeat = 100000;

/// Values of the core options after parsing.
struct CoreOptions {
  std::vector<std::string> variants;  ///< --variant, "all" expanded to every variant in order
  /// The variants --variant named one by one (not through "all" or the default): one of these that
  /// cannot run here is a usage error, while one that came with "all" is skipped with the reason.
  std::vector<std::string> named;
  int repeat = 1;                     ///< --repeat: timed runs per variant (min, median, max reported)
  int warmup = 0;                     ///< --warmup: untimed runs before them
  std::string csv_path;               ///< --csv FILE
  std::string json_path;              ///< --json FILE
  std::string dump_dir;               ///< --dump DIR (checked by parse(); Experiment's DumpFolder makes it)
  bool verify = true;                 ///< false with --no-verify
  bool quick = false;                 ///< --quick: the problem's small size (smoke tests)
};

/// Chapter defaults for the core options.
struct CliDefaults {
  int repeat = 3;
  int warmup = 1;
};

/// The command line of one chapter: the core options plus the groups added before parse().
class Cli {
 public:
  Cli(std::string program, std::string description, CliDefaults defaults = {});
  ~Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  /// The CLI11 application, for options that belong to no group.
  CLI::App& app() { return *app_; }

  /// A titled group of options (shown under its title in --help), created on first use.
  CLI::Option_group& group(const std::string& title);

  /// The names --variant accepts, in run order, and those "all" (the default) selects: all of them
  /// unless `in_all` is given (a variant kept to show how it fails runs only when named). Set
  /// before parse().
  void set_variant_names(std::vector<std::string> names, std::vector<std::string> in_all = {});

  /// Called after a successful parse, in the order added: groups finish their values here (a
  /// problem applies its --quick sizes, checks combinations of its options).
  void on_parsed(std::function<void(const Cli&)> hook);

  /// Parses argv. Throws UsageError on bad input (the OMP_NUM_THREADS of the environment included:
  /// check_thread_environment) and ExitRequest{0} after printing --help. A variant named twice runs once.
  const CoreOptions& parse(int argc, const char* const* argv);

  [[nodiscard]] const CoreOptions& options() const { return options_; }
  [[nodiscard]] const std::string& program() const { return program_; }
  /// The command line as given (program and arguments), for the JSON results.
  [[nodiscard]] const std::vector<std::string>& command_line() const { return command_line_; }
  /// True when the user gave this option explicitly (e.g. "--nx").
  [[nodiscard]] bool given(const std::string& option) const;
  /// True when --variant named `variant` itself (not through "all" or the default set).
  [[nodiscard]] bool named(const std::string& variant) const;

 private:
  std::string program_;
  std::unique_ptr<CLI::App> app_;
  CoreOptions options_;
  std::vector<std::string> variant_names_;
  std::vector<std::string> variant_all_;      ///< what "all" expands to
  std::vector<std::string> variant_choices_;  ///< variant_names_ and "all", what --variant checks against
  std::vector<std::function<void(const Cli&)>> hooks_;
  std::vector<std::string> command_line_;
  std::map<std::string, CLI::Option_group*> groups_;  ///< owned by app_
};

/// Adds --sweep MODE ('paper' or 'wide') to the option group `group`, described by `help`. A sweep
/// chooses its own sizes and keeps no single result: each of `refused` (the size options, --dump...)
/// given beside it is a usage error, rather than an option the run would silently ignore.
void add_sweep_option(Cli& cli, const std::string& group, std::string& mode, const std::string& help,
                      const std::vector<std::string>& refused);

}  // namespace gpgpu
