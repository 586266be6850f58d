// The multiply chapter's sizes under --quick, and chapter 12's --gemm: what --help states is what
// the run accepts.
#include <regex>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include "gpgpu/blas/options.hpp"
#include "gpgpu/blas/routine_options.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/harness/command_line.hpp"

namespace gpgpu::blas {
namespace {

using harness::parse_group;

Dims gemm_dims(std::vector<std::string> args) {
  return parse_group<Options>(std::move(args), [](Cli& cli, Options& o) { add_options(cli, o); }).dims;
}

void expect_dims(const Dims& got, Dims want) {
  EXPECT_EQ(got.m, want.m);
  EXPECT_EQ(got.n, want.n);
  EXPECT_EQ(got.k, want.k);
}

TEST(GemmOptions, QuickKeepsTheQuickSizeOfEverySizeNotGiven) {
  expect_dims(gemm_dims({"--quick"}), kQuickDims);
  // One size given: the others stay quick (they once became 4096, a run of minutes).
  expect_dims(gemm_dims({"--quick", "--m", "5"}), {5, kQuickDims.n, kQuickDims.k});
  expect_dims(gemm_dims({"--quick", "--k", "7"}), {kQuickDims.m, kQuickDims.n, 7});
  // --n alone is the square n x n x n, with or without --quick.
  expect_dims(gemm_dims({"--quick", "--n", "33"}), {33, 33, 33});
  expect_dims(gemm_dims({"--quick", "--m", "5", "--n", "9"}), {5, 9, 9});
  expect_dims(gemm_dims({"--m", "5"}), {5, 4096, 4096});
  expect_dims(gemm_dims({}), {4096, 4096, 4096});
}

TEST(RoutineOptions, TheGemmBoundInTheHelpIsAccepted) {
  Cli cli("prog", "test");
  RoutineOptions o;
  add_routine_options(cli, o);
  const std::string help = cli.app().help();
  std::smatch bound;
  ASSERT_TRUE(std::regex_search(help, bound, std::regex(R"(--gemm[^\n]*in \[1,(\d+)\])"))) << help;
  const std::string largest = bound[1];
  EXPECT_EQ(parse_group<RoutineOptions>({"--gemm", largest}, add_routine_options).sizes.gemm, std::stoll(largest));
  EXPECT_THROW(parse_group<RoutineOptions>({"--gemm", std::to_string(std::stoll(largest) + 1)}, add_routine_options),
               UsageError);
}

}  // namespace
}  // namespace gpgpu::blas
