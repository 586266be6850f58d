// The shared command line: defaults, --quick, variant lists, and one clear UsageError for every
// kind of bad input (the chapters' exit-code tests check the same through the executables).
#include <gtest/gtest.h>

#include "gpgpu/cli.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/spectral.hpp"

namespace gpgpu {
namespace {

CommonOptions parse(std::vector<std::string> args) {
  ChapterCli cli("prog", "test program", {"alpha", "beta", "gamma"});
  args.insert(args.begin(), "prog");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return cli.parse(static_cast<int>(argv.size()), argv.data());
}

TEST(Cli, DefaultsAreThePapersProblem) {
  const CommonOptions o = parse({});
  EXPECT_EQ(o.grid, (Grid{1024, 1024}));
  EXPECT_EQ(o.iters, 1000);
  EXPECT_DOUBLE_EQ(o.omega, kDefaultOmega);
  EXPECT_EQ(o.variants, (std::vector<std::string>{"alpha", "beta", "gamma"}));
  EXPECT_TRUE(o.verify);
}

TEST(Cli, ParsesEveryOption) {
  const CommonOptions o = parse({"--nx", "17", "--ny", "1023", "--iters", "7", "--omega", "0.5", "--variant",
                                 "gamma,alpha", "--repeat", "3", "--warmup", "2", "--no-verify"});
  EXPECT_EQ(o.grid, (Grid{17, 1023}));
  EXPECT_EQ(o.iters, 7);
  EXPECT_DOUBLE_EQ(o.omega, 0.5);
  EXPECT_EQ(o.variants, (std::vector<std::string>{"gamma", "alpha"}));
  EXPECT_EQ(o.repeat, 3);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_FALSE(o.verify);
}

TEST(Cli, QuickShrinksOnlyWhatWasNotGiven) {
  const CommonOptions q = parse({"--quick"});
  EXPECT_LT(q.grid.nodes(), 100000);
  EXPECT_LT(q.iters, 1000);
  const CommonOptions r = parse({"--quick", "--nx", "5"});
  EXPECT_EQ(r.grid.nx, 5);
  EXPECT_EQ(r.grid.ny, q.grid.ny);
}

TEST(Cli, AllMeansEveryVariant) {
  EXPECT_EQ(parse({"--variant", "all"}).variants.size(), 3u);
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
    ::testing::Values(std::vector<std::string>{"--nx", "0"}, std::vector<std::string>{"--ny", "-4"},
                      std::vector<std::string>{"--nx", "abc"}, std::vector<std::string>{"--nx", "2.5"},
                      std::vector<std::string>{"--nx", "99999999999"}, std::vector<std::string>{"--iters", "0"},
                      std::vector<std::string>{"--omega", "0"}, std::vector<std::string>{"--omega", "2"},
                      std::vector<std::string>{"--omega", "-0.5"}, std::vector<std::string>{"--omega", "nan"},
                      std::vector<std::string>{"--omega", "inf"}, std::vector<std::string>{"--repeat", "0"},
                      std::vector<std::string>{"--warmup", "-1"}, std::vector<std::string>{"--variant", "delta"},
                      std::vector<std::string>{"--bogus"}, std::vector<std::string>{"--nx"},
                      std::vector<std::string>{"--nx", "200000", "--ny", "200000"},
                      std::vector<std::string>{"--csv", "/no/such/dir/out.csv"}));

}  // namespace
}  // namespace gpgpu
