/// @file command_line.hpp
/// @brief Parses a test's arguments with a chapter's command line, as main() would hand them over,
/// and the values an option group takes from them.
#pragma once
#include <string>
#include <vector>

#include "gpgpu/cli.hpp"

namespace gpgpu::harness {

/// cli.parse() of "test" followed by `args` (UsageError on bad input, as in a chapter).
inline const CoreOptions& parse_command_line(Cli& cli, std::vector<std::string> args) {
  args.insert(args.begin(), "test");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return cli.parse(static_cast<int>(argv.size()), argv.data());
}

/// The values of one option group after parsing `args`: `add(cli, options)` adds the group (as a
/// problem's add_options does), with one variant on the command line.
template <class Options, class Add>
Options parse_group(std::vector<std::string> args, Add&& add) {
  Cli cli("test", "test");
  Options options;
  add(cli, options);
  cli.set_variant_names({"x"});
  parse_command_line(cli, std::move(args));
  return options;
}

}  // namespace gpgpu::harness
