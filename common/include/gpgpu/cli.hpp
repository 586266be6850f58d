/// @file cli.hpp
/// @brief The options every chapter executable shares, parsed with CLI11.
///
///   --nx --ny --iters --omega --variant NAME[,NAME]|all --repeat --warmup
///   --csv FILE --json FILE --dump DIR --no-verify --quick --help
///
/// Chapters add their own options (backend and device choice) to app() before parse(). Bad input
/// (sizes <= 0, non-numbers, unknown options or variants, ω outside (0, 2)) becomes a UsageError,
/// which run_main() prints as one line and turns into exit code 2.
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpgpu/grid.hpp"

namespace gpgpu {

/// Validator for integer options: refuses "1.5", "1e3", "abc" and values outside [min, max] with a
/// one-line message. Use it for chapter options too (block sizes, thread counts, device indices).
CLI::Validator integer_in_range(long long min, long long max = 2147483647);

/// Validator for output files: refuses, at start-up, a path whose directory does not exist (so a
/// long run does not fail at its end). Used by --csv and --json; use it for chapter outputs too.
CLI::Validator writable_path();

/// Values of the shared options after parsing.
struct CommonOptions {
  Grid grid{1024, 1024};          ///< --nx, --ny (the paper's size)
  int iters = 1000;               ///< --iters (the paper's count)
  double omega = 0;               ///< --omega, defaults to kDefaultOmega
  std::vector<std::string> variants;  ///< --variant, "all" expanded to every variant in order
  int repeat = 1;                 ///< --repeat: timed runs per variant (the median is reported)
  int warmup = 0;                 ///< --warmup: untimed runs before them
  std::string csv_path;           ///< --csv FILE
  std::string json_path;          ///< --json FILE
  std::string dump_dir;           ///< --dump DIR
  bool verify = true;             ///< false with --no-verify
  bool quick = false;             ///< --quick: small grid, few iterations (smoke tests)
};

/// Chapter-specific defaults for the shared options.
struct CliDefaults {
  int repeat = 1;
  int warmup = 0;
  Grid quick_grid{192, 160};  ///< --quick grid (not a multiple of common block sizes)
  int quick_iters = 100;      ///< --quick iterations
};

/// Command line of one chapter: the shared options plus whatever the chapter adds to app().
class ChapterCli {
 public:
  ChapterCli(std::string program, std::string description, std::vector<std::string> variant_names,
             CliDefaults defaults = {});

  /// The CLI11 application, for chapter-specific options.
  CLI::App& app() { return app_; }

  /// Parses argv. Throws UsageError on bad input and ExitRequest{0} after printing --help.
  const CommonOptions& parse(int argc, const char* const* argv);

  [[nodiscard]] const CommonOptions& options() const { return options_; }
  [[nodiscard]] const std::string& program() const { return program_; }
  /// True when the user gave this option explicitly (e.g. "--nx").
  [[nodiscard]] bool given(const std::string& option) const;

 private:
  std::string program_;
  std::vector<std::string> variant_names_;
  CliDefaults defaults_;
  CLI::App app_;
  CommonOptions options_;
};

}  // namespace gpgpu
