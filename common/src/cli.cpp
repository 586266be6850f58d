#include "gpgpu/cli.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <filesystem>
#include <iostream>

#include "gpgpu/errors.hpp"
#include "gpgpu/spectral.hpp"

namespace gpgpu {

CLI::Validator integer_in_range(long long min, long long max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        long long value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || ptr != end) return "expects an integer, got '" + text + "'";
        if (value < min || value > max)
          return "expects an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + text;
        return {};
      },
      max == std::numeric_limits<int>::max() ? ">=" + std::to_string(min)
                                             : "in [" + std::to_string(min) + "," + std::to_string(max) + "]",
      "IntegerInRange");
}

namespace {

const CLI::Validator kPositiveInt = integer_in_range(1);
const CLI::Validator kNonNegativeInt = integer_in_range(0);

// ω must be a finite number strictly between 0 and 2 (outside, weighted Jacobi cannot converge).
const CLI::Validator kOmegaRange(
    [](std::string& text) -> std::string {
      double value = 0;
      if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value <= 0.0 || value >= 2.0)
        return "omega must be a number strictly between 0 and 2, got '" + text + "'";
      return {};
    },
    "in (0,2)", "OmegaRange");

// Output files must be creatable: fail at start-up, not after a long run.
const CLI::Validator kWritablePath(
    [](std::string& text) -> std::string {
      const std::filesystem::path parent = std::filesystem::absolute(text).parent_path();
      if (text.empty() || !std::filesystem::is_directory(parent))
        return "cannot write '" + text + "': directory '" + parent.string() + "' does not exist";
      return {};
    },
    "FILE", "WritablePath");

}  // namespace

CLI::Validator writable_path() { return kWritablePath; }

ChapterCli::ChapterCli(std::string program, std::string description, std::vector<std::string> variant_names,
                       CliDefaults defaults)
    : program_(std::move(program)), variant_names_(std::move(variant_names)), defaults_(defaults),
      app_(std::move(description), program_) {
  options_.omega = kDefaultOmega;
  options_.repeat = defaults_.repeat;
  options_.warmup = defaults_.warmup;
  app_.add_option("--nx", options_.grid.nx, "grid width: unknowns per row")->check(kPositiveInt)->capture_default_str();
  app_.add_option("--ny", options_.grid.ny, "grid height: number of rows")->check(kPositiveInt)->capture_default_str();
  app_.add_option("--iters", options_.iters, "weighted Jacobi iterations")->check(kPositiveInt)->capture_default_str();
  app_.add_option("--omega", options_.omega, "Jacobi weight ω, in (0, 2); converges for ω < 2/λmax(D⁻¹A)")
      ->check(kOmegaRange)
      ->capture_default_str();
  std::vector<std::string> choices = variant_names_;
  choices.emplace_back("all");
  app_.add_option("--variant", options_.variants, "variants to run, comma-separated, or 'all'")
      ->delimiter(',')
      ->check(CLI::IsMember(choices))
      ->default_str("all");
  app_.add_option("--repeat", options_.repeat, "timed runs per variant (the median is reported)")
      ->check(kPositiveInt)
      ->capture_default_str();
  app_.add_option("--warmup", options_.warmup, "untimed runs per variant before the timed ones")
      ->check(kNonNegativeInt)
      ->capture_default_str();
  app_.add_option("--csv", options_.csv_path, "write the result table as CSV")->check(kWritablePath);
  app_.add_option("--json", options_.json_path, "write the results, the machine and the paper's figures as JSON")
      ->check(kWritablePath);
  app_.add_option("--dump", options_.dump_dir,
                  "write matrix diagonals, right-hand side, Vm, reference and solutions as .npy files into DIR");
  app_.add_flag("--no-verify", [this](std::int64_t) { options_.verify = false; },
                "skip the CPU reference and the comparison with it");
  app_.add_flag("--quick", options_.quick, "small grid and few iterations (for smoke tests), unless --nx/--ny/--iters are given");
}

bool ChapterCli::given(const std::string& option) const { return app_.count(option) > 0; }

const CommonOptions& ChapterCli::parse(int argc, const char* const* argv) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_.help();
    throw ExitRequest{kExitSuccess};
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app_.help("", CLI::AppFormatMode::All);
    throw ExitRequest{kExitSuccess};
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  if (options_.quick) {
    if (!given("--nx")) options_.grid.nx = defaults_.quick_grid.nx;
    if (!given("--ny")) options_.grid.ny = defaults_.quick_grid.ny;
    if (!given("--iters")) options_.iters = defaults_.quick_iters;
  }
  if (options_.variants.empty() ||
      std::find(options_.variants.begin(), options_.variants.end(), "all") != options_.variants.end()) {
    options_.variants = variant_names_;
  }
  validate_grid(options_.grid);
  if (!options_.dump_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options_.dump_dir, ec);
    if (ec || !std::filesystem::is_directory(options_.dump_dir))
      throw UsageError("--dump: cannot create directory '" + options_.dump_dir + "'");
  }
  return options_;
}

}  // namespace gpgpu
