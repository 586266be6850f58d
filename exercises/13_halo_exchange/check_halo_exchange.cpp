// Exercise 13's check: chapter 13's executable, built again with your exchange_halo in its CPU part
// (EX13_CHAPTER, see CMakeLists.txt), runs its mpi_cpu variant under mpirun on 2 and 3 ranks at
// sizes that do not divide by the ranks, down to one row per rank. The chapter compares the result
// with its one-process run (one_cpu) and exits 1 unless the two are equal bit for bit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct Case {
  int ranks, nx, ny, iters;
};

std::string describe(const Case& c) {
  return std::to_string(c.ranks) + " ranks, " + std::to_string(c.nx) + "x" + std::to_string(c.ny) + ", " +
         std::to_string(c.iters) + " iterations";
}

void PrintTo(const Case& c, std::ostream* os) { *os << describe(c); }

// The chapter's lines about mpi_cpu and any error line: what a failure needs to show.
std::string verdict_lines(const std::string& output) {
  std::istringstream in(output);
  std::string line, lines;
  while (std::getline(in, line)) {
    if (line.find("mpi_cpu") != std::string::npos || line.find("rror") != std::string::npos) lines += line + "\n";
  }
  return lines;
}

// Runs `command` through the shell; returns its exit code and everything it printed.
std::pair<int, std::string> run(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed: " + command};
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

class HaloExchange : public ::testing::TestWithParam<Case> {};

TEST_P(HaloExchange, MpiCpuEqualsOneProcessBitForBit) {
  const Case c = GetParam();
  // Open MPI runs as root only when told so (CI containers), and more ranks than cores when allowed.
  const std::string command = std::string("env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
                              "OMPI_MCA_rmaps_base_oversubscribe=1 '" EX13_MPIEXEC "' " EX13_NUMPROC_FLAG " " +
                              std::to_string(c.ranks) + " '" EX13_CHAPTER "' --variant mpi_cpu --nx " +
                              std::to_string(c.nx) + " --ny " + std::to_string(c.ny) + " --iters " +
                              std::to_string(c.iters) + " --repeat 1";
  const auto [code, output] = run(command);
  const bool equal = ::testing::Matches(::testing::ContainsRegex("mpi_cpu.*bit for bit equal to one_cpu"))(output);
  EXPECT_TRUE(code == 0 && equal) << describe(c) << ": exit code " << code
                                  << "; the chapter's mpi_cpu is not bit for bit equal to one_cpu:\n"
                                  << verdict_lines(output) << "(the command: " << command << ")";
}

INSTANTIATE_TEST_SUITE_P(Sizes, HaloExchange,
                         ::testing::Values(Case{3, 33, 7, 25}, Case{2, 64, 100, 40}, Case{3, 64, 100, 40},
                                           Case{3, 9, 3, 25}, Case{2, 1, 2, 9}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return std::to_string(c.ranks) + "_ranks_" + std::to_string(c.nx) + "x" +
                                  std::to_string(c.ny);
                         });

}  // namespace
