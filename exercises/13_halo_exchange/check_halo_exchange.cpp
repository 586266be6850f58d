// Exercise 13's check: chapter 13's executable, built again with your exchange_halo in its CPU part
// (ex13::chapter(), see CMakeLists.txt), runs its mpi_cpu variant under mpirun on 2 and 3 ranks at
// sizes that do not divide by the ranks, down to one row per rank. The chapter compares the result
// with its one-process run (one_cpu) and exits 1 unless the two are equal bit for bit. The ghost
// rows outside the grid meet only zero couplings, so a row written there cannot change the result:
// the chapter keeps a finite sentinel in them and stops with an error (exit code other than 0) when
// an exchange has overwritten it (a periodic neighbour, say).
//
// The small rows (up to 256 bytes) travel by MPI's eager protocol: the library buffers them, and a
// send returns before its receive is posted. The large rows (64 KiB to 1 MiB, far past Open MPI's
// shared-memory eager limit of 4 KiB) do not: a blocking send waits for its receive, so an exchange
// whose ranks all send before they receive deadlocks there. A run that has not ended after kDeadline
// is killed and fails with that reason, and the cases after it are skipped (each would wait as
// long), so a deadlocked answer fails in well under a minute.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <ostream>
#include <sstream>
#include <string>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chapter_under_check.hpp"

namespace {

using Clock = std::chrono::steady_clock;
// A correct run of the largest case takes a few seconds (mpirun's start-up most of it).
constexpr std::chrono::seconds kDeadline{30};

struct Case {
  int ranks, nx, ny, iters;
};

std::string describe(const Case& c) {
  return std::to_string(c.ranks) + " ranks, " + std::to_string(c.nx) + "x" + std::to_string(c.ny) + " (rows of " +
         std::to_string(c.nx * 4) + " bytes), " + std::to_string(c.iters) + " iterations";
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

struct Outcome {
  bool timed_out = false;
  int code = -1;  // the exit code; -1 when killed by a signal
  std::string output;
};

// Waits up to `limit` for `pid` to end; true if it did (its status in `status`).
bool reaped(pid_t pid, int& status, std::chrono::milliseconds limit) {
  const Clock::time_point end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (waitpid(pid, &status, WNOHANG) == pid) return true;
    usleep(50 * 1000);
  }
  return false;
}

// Runs `command` through the shell in a process group of its own, collecting stdout and stderr, and
// kills the whole group if it has not ended by `deadline`: first SIGTERM, which mpirun passes on to
// its ranks, then SIGKILL for anything left.
Outcome run(const std::string& command, std::chrono::seconds deadline) {
  Outcome out;
  std::array<int, 2> fds{};
  if (pipe(fds.data()) != 0) return {false, -1, "pipe failed"};
  const pid_t pid = fork();
  if (pid < 0) return {false, -1, "fork failed"};
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also here: the group exists before the parent may signal it
  close(fds[1]);
  const Clock::time_point end = Clock::now() + deadline;
  std::array<char, 4096> buffer{};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    if (left <= 0) {
      out.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline is checked above
    const ssize_t n = read(fds[0], buffer.data(), buffer.size());
    if (n <= 0) break;  // end of output: the command has ended (or closed its output)
    out.output.append(buffer.data(), static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  if (out.timed_out || !reaped(pid, status, std::chrono::seconds(5))) {
    out.timed_out = true;
    kill(-pid, SIGTERM);
    if (!reaped(pid, status, std::chrono::seconds(10))) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
    }
    kill(-pid, SIGKILL);  // ranks that outlived mpirun in its group
    return out;
  }
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

bool an_earlier_case_hung = false;

class HaloExchange : public ::testing::TestWithParam<Case> {};

TEST_P(HaloExchange, MpiCpuEqualsOneProcessBitForBit) {
  const Case c = GetParam();
  if (an_earlier_case_hung) GTEST_SKIP() << "an earlier case deadlocked; this one would wait as long";
  // Open MPI runs as root only when told so (CI containers), and more ranks than cores when allowed;
  // ranks that wait yield the core, and are not pinned (side-by-side runs would share one core).
  const std::string command = std::string("env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ") +
                              "OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none " +
                              "OMPI_MCA_mpi_yield_when_idle=1 OMP_NUM_THREADS=1 '" + ex13::mpiexec() + "' " +
                              ex13::numproc_flag() + " " + std::to_string(c.ranks) + " '" + ex13::chapter() +
                              "' --variant mpi_cpu --nx " +
                              std::to_string(c.nx) + " --ny " + std::to_string(c.ny) + " --iters " +
                              std::to_string(c.iters) + " --repeat 1";
  const Outcome o = run(command, kDeadline);
  if (o.timed_out) {
    an_earlier_case_hung = true;
    FAIL() << describe(c) << ": no result after " << kDeadline.count()
           << " s, killed. The ranks wait on each other: a deadlock. Does every rank post a receive that "
              "can match its neighbour's send before it blocks in a send of its own? (Rows this large "
              "are not buffered by MPI's eager protocol.) Its output so far:\n"
           << o.output << "(the command: " << command << ")";
  }
  const bool equal = ::testing::Matches(::testing::ContainsRegex("mpi_cpu.*bit for bit equal to one_cpu"))(o.output);
  EXPECT_TRUE(o.code == 0 && equal) << describe(c) << ": exit code " << o.code
                                    << "; the chapter's mpi_cpu failed (not bit for bit equal to one_cpu, "
                                       "or an error):\n"
                                    << verdict_lines(o.output) << "(the command: " << command << ")";
}

// Small rows first (the ghost rows' contents), then rows past every eager limit (the pairing).
INSTANTIATE_TEST_SUITE_P(Sizes, HaloExchange,
                         ::testing::Values(Case{3, 33, 7, 25}, Case{2, 64, 100, 40}, Case{3, 64, 100, 40},
                                           Case{3, 9, 3, 25}, Case{2, 1, 2, 9}, Case{3, 16384, 7, 4},
                                           Case{3, 65536, 3, 3}, Case{2, 262144, 4, 2}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return std::to_string(c.ranks) + "_ranks_" + std::to_string(c.nx) + "x" +
                                  std::to_string(c.ny);
                         });

}  // namespace
