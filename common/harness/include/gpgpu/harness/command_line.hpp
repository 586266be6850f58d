/// @file command_line.hpp
/// @brief Parses a test's arguments with a chapter's command line, as main() would hand them over.
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

}  // namespace gpgpu::harness
