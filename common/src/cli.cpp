#include "gpgpu/cli.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <limits>

#include <CLI/CLI.hpp>

#include "gpgpu/cpu_threads.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/output_file.hpp"

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

CLI::Validator writable_path() {
  return CLI::Validator([](std::string& text) { return output_path_problem(text); }, "FILE", "WritablePath");
}

CLI::Validator writable_folder() {
  return CLI::Validator([](std::string& text) { return output_folder_problem(text); }, "DIR", "WritableFolder");
}

void add_sweep_option(Cli& cli, const std::string& group, std::string& mode, const std::string& help,
                      const std::vector<std::string>& refused) {
  CLI::Option* sweep = cli.group(group).add_option("--sweep", mode, help)->check(CLI::IsMember({"paper", "wide"}));
  for (const std::string& name : refused) sweep->excludes(cli.app().get_option(name));
}

Cli::Cli(std::string program, std::string description, CliDefaults defaults)
    : program_(std::move(program)), app_(std::make_unique<CLI::App>(std::move(description), program_)) {
  options_.repeat = defaults.repeat;
  options_.warmup = defaults.warmup;
  CLI::Option_group& run = group("Run");
  run.add_option("--repeat", options_.repeat, "timed runs per variant (min, median and max are reported)")
      ->check(integer_in_range(1, kMaxRepeat))
      ->capture_default_str();
  run.add_option("--warmup", options_.warmup, "untimed runs per variant before the timed ones")
      ->check(integer_in_range(0, kMaxRepeat))
      ->capture_default_str();
  run.add_flag("--no-verify", [this](std::int64_t) { options_.verify = false; },
               "skip the CPU reference and the comparison with it (numbers are then unchecked)");
  run.add_flag("--quick", options_.quick, "the problem's small size (smoke tests), unless sizes are given");
  CLI::Option_group& out = group("Output");
  out.add_option("--csv", options_.csv_path, "write the result table as CSV")->check(writable_path());
  out.add_option("--json", options_.json_path, "write the results, the machine, the limits and the paper's figures as JSON")
      ->check(writable_path());
  out.add_option("--dump", options_.dump_dir,
                 "write the problem's inputs, reference and results as NumPy .npy files into DIR (new, empty, or an "
                 "earlier dump, which this one replaces)")
      ->check(writable_folder());
}

Cli::~Cli() = default;

CLI::Option_group& Cli::group(const std::string& title) {
  auto it = groups_.find(title);
  if (it == groups_.end()) it = groups_.emplace(title, app_->add_option_group(title)).first;
  return *it->second;
}

void Cli::set_variant_names(std::vector<std::string> names, std::vector<std::string> in_all) {
  variant_all_ = in_all.empty() ? names : std::move(in_all);
  variant_names_ = std::move(names);
}

void Cli::on_parsed(std::function<void(const Cli&)> hook) { hooks_.push_back(std::move(hook)); }

bool Cli::given(const std::string& option) const { return app_->count(option) > 0; }

bool Cli::named(const std::string& variant) const {
  return std::find(options_.named.begin(), options_.named.end(), variant) != options_.named.end();
}

const CoreOptions& Cli::parse(int argc, const char* const* argv) {
  command_line_.assign(argv, argv + argc);
  variant_choices_ = variant_names_;
  variant_choices_.emplace_back("all");
  if (app_->get_option_no_throw("--variant") == nullptr)
    group("Run")
        .add_option("--variant", options_.variants, "variants to run, comma-separated (a variant named twice runs once), or 'all'")
        ->delimiter(',')
        ->check(CLI::IsMember(variant_choices_))
        ->default_str("all");
  try {
    app_->parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_->help();
    throw ExitRequest{kExitSuccess};
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app_->help("", CLI::AppFormatMode::All);
    throw ExitRequest{kExitSuccess};
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  check_thread_environment();
  // A variant named twice runs once, where it was first named (as --threads 4,4 runs once).
  std::vector<std::string> once;
  for (const std::string& name : options_.variants)
    if (std::find(once.begin(), once.end(), name) == once.end()) once.push_back(name);
  options_.variants = std::move(once);
  options_.named.clear();
  for (const std::string& name : options_.variants)
    if (name != "all") options_.named.push_back(name);
  // "all" stands for the default set, in run order, plus whatever else was named.
  if (options_.variants.empty() ||
      std::find(options_.variants.begin(), options_.variants.end(), "all") != options_.variants.end()) {
    std::vector<std::string> chosen;
    for (const std::string& name : variant_names_) {
      const bool named = std::find(options_.variants.begin(), options_.variants.end(), name) != options_.variants.end();
      if (named || std::find(variant_all_.begin(), variant_all_.end(), name) != variant_all_.end()) chosen.push_back(name);
    }
    options_.variants = std::move(chosen);
  }
  for (const auto& hook : hooks_) hook(*this);
  return options_;
}

}  // namespace gpgpu
