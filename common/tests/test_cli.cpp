// The core command line: defaults, option groups, variant lists, hooks after parsing, and one
// clear UsageError for every kind of bad input (the chapters' exit-code tests check the same
// through the executables).
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include "gpgpu/cli.hpp"
#include "gpgpu/cpu_threads.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu {
namespace {

struct Parsed {
  CoreOptions core;
  int size = 0;
  bool hook_ran = false;
};

// A chapter-like command line: the core options, one group with an option, three variants.
Parsed parse(std::vector<std::string> args) {
  Cli cli("prog", "test program");
  Parsed p;
  p.size = 64;
  cli.group("Problem").add_option("--size", p.size, "a size")->check(integer_in_range(1, 1000));
  cli.on_parsed([&p](const Cli& c) {
    p.hook_ran = true;
    if (c.options().quick && !c.given("--size")) p.size = 8;
  });
  cli.set_variant_names({"alpha", "beta", "gamma"});
  args.insert(args.begin(), "prog");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  p.core = cli.parse(static_cast<int>(argv.size()), argv.data());
  return p;
}

TEST(Cli, Defaults) {
  const Parsed p = parse({});
  EXPECT_EQ(p.core.variants, (std::vector<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_EQ(p.core.repeat, CliDefaults{}.repeat);
  EXPECT_EQ(p.core.warmup, CliDefaults{}.warmup);
  EXPECT_TRUE(p.core.verify);
  EXPECT_FALSE(p.core.quick);
  EXPECT_EQ(p.size, 64);
  EXPECT_TRUE(p.hook_ran);
}

TEST(Cli, ParsesEveryCoreOption) {
  const Parsed p = parse({"--variant", "gamma,alpha", "--repeat", "5", "--warmup", "2", "--no-verify", "--size", "17"});
  EXPECT_EQ(p.core.variants, (std::vector<std::string>{"gamma", "alpha"}));
  EXPECT_EQ(p.core.repeat, 5);
  EXPECT_EQ(p.core.warmup, 2);
  EXPECT_FALSE(p.core.verify);
  EXPECT_EQ(p.size, 17);
}

TEST(Cli, QuickIsTheGroupsToApply) {
  EXPECT_EQ(parse({"--quick"}).size, 8);
  EXPECT_EQ(parse({"--quick", "--size", "5"}).size, 5);
}

TEST(Cli, AllMeansEveryVariantInOrder) {
  EXPECT_EQ(parse({"--variant", "beta,all"}).core.variants, (std::vector<std::string>{"alpha", "beta", "gamma"}));
}

TEST(Cli, AVariantOutsideAllRunsOnlyWhenNamed) {
  const auto parse_with = [](std::vector<std::string> args) {
    Cli cli("prog", "test");
    cli.set_variant_names({"good", "broken", "better"}, {"good", "better"});
    args.insert(args.begin(), "prog");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    return cli.parse(static_cast<int>(argv.size()), argv.data()).variants;
  };
  EXPECT_EQ(parse_with({}), (std::vector<std::string>{"good", "better"}));
  EXPECT_EQ(parse_with({"--variant", "broken"}), (std::vector<std::string>{"broken"}));
  EXPECT_EQ(parse_with({"--variant", "all,broken"}), (std::vector<std::string>{"good", "broken", "better"}));
}

TEST(Cli, KeepsTheCommandLine) {
  Cli cli("prog", "test");
  cli.set_variant_names({"a"});
  const char* argv[] = {"prog", "--repeat", "2"};
  cli.parse(3, argv);
  EXPECT_EQ(cli.command_line(), (std::vector<std::string>{"prog", "--repeat", "2"}));
}

TEST(Cli, HelpExitsWithZero) {
  try {
    parse({"--help"});
    FAIL() << "expected ExitRequest";
  } catch (const ExitRequest& e) {
    EXPECT_EQ(e.code, 0);
  }
}

class BadInput : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(BadInput, IsAUsageError) { EXPECT_THROW(parse(GetParam()), UsageError); }

INSTANTIATE_TEST_SUITE_P(
    Cli, BadInput,
    ::testing::Values(std::vector<std::string>{"--size", "0"}, std::vector<std::string>{"--size", "abc"},
                      std::vector<std::string>{"--size", "2.5"}, std::vector<std::string>{"--size", "1001"},
                      std::vector<std::string>{"--size", "99999999999"}, std::vector<std::string>{"--repeat", "0"},
                      std::vector<std::string>{"--warmup", "-1"}, std::vector<std::string>{"--variant", "delta"},
                      std::vector<std::string>{"--bogus"}, std::vector<std::string>{"--size"},
                      std::vector<std::string>{"--csv", "/no/such/dir/out.csv"},
                      std::vector<std::string>{"--json", "/no/such/dir/out.json"},
                      // Empty output paths (--dump '' was once ignored without a word) and a folder
                      // where a file goes: refused before the run, not at its end.
                      std::vector<std::string>{"--json", ""}, std::vector<std::string>{"--csv", ""},
                      std::vector<std::string>{"--dump", ""},
                      std::vector<std::string>{"--json", std::filesystem::temp_directory_path().string()},
                      // Counts whose times would not fit in memory (2^31 reserved 16 GiB).
                      std::vector<std::string>{"--repeat", "100001"}, std::vector<std::string>{"--warmup", "100001"},
                      std::vector<std::string>{"--repeat", "2147483647"}));

TEST(Cli, RepeatAndWarmupUpToTheirBound) {
  const Parsed p = parse({"--repeat", std::to_string(kMaxRepeat), "--warmup", std::to_string(kMaxRepeat)});
  EXPECT_EQ(p.core.repeat, kMaxRepeat);
  EXPECT_EQ(p.core.warmup, kMaxRepeat);
}

TEST(Cli, AVariantNamedTwiceRunsOnce) {
  EXPECT_EQ(parse({"--variant", "beta,beta"}).core.variants, std::vector<std::string>{"beta"});
  EXPECT_EQ(parse({"--variant", "gamma,alpha,gamma"}).core.variants, (std::vector<std::string>{"gamma", "alpha"}));
  EXPECT_EQ(parse({"--variant", "all,all"}).core.variants, (std::vector<std::string>{"alpha", "beta", "gamma"}));
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(Cli, RefusesAnOpenMpThreadCountBeyondTheBound) {
  // The runtime read the variable at start-up and would start that many threads in the first
  // parallel region: 100000 ended in SIGSEGV, whatever --threads said.
  for (const char* value : {"100000", "60000", "2,100000", "0", "many"}) {
    const ScopedEnv env("OMP_NUM_THREADS", value);
    EXPECT_THROW(parse({}), UsageError) << "OMP_NUM_THREADS=" << value;
  }
  const std::string bound = std::to_string(max_cpu_threads());
  for (const char* value : {"1", "3", " 2 , 1 ", ""}) {
    const ScopedEnv env("OMP_NUM_THREADS", value);
    EXPECT_NO_THROW(parse({})) << "OMP_NUM_THREADS=" << value;
  }
  const ScopedEnv env("OMP_NUM_THREADS", bound.c_str());
  EXPECT_NO_THROW(parse({}));
}

}  // namespace
}  // namespace gpgpu
