#include "gpgpu/cpu_threads.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include <CLI/CLI.hpp>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "gpgpu/cli.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu {

int max_cpu_threads() {
  // Why 8 per hardware thread, and at least 64: a team passes a barrier only once every one of its
  // threads has had a time slice, so with many more threads than cores each barrier costs a round
  // of the scheduler through the whole team. The solvers meet a barrier every iteration and the host
  // stream limit thousands of times: on 2 cores a run with 64 threads ends about as soon as one with
  // 2, 1024 threads take several times as long, and 4096 (once accepted) look like a hang. 8 per
  // hardware thread leaves room to see what oversubscription does (chapter 01 runs 1, 2, 4, 8 and
  // 16 threads on any machine); no parallel region here needs more.
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(64, 8 * hardware);
}

int default_cpu_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

CLI::Validator cpu_thread_count(int min) { return integer_in_range(min, max_cpu_threads()); }

void check_thread_environment() {
  const char* value = std::getenv("OMP_NUM_THREADS");
  if (value == nullptr || *value == '\0') return;
  const std::string refusal = "OMP_NUM_THREADS='" + std::string(value) + "': expects thread counts from 1 to " +
                              std::to_string(max_cpu_threads()) + " (8 per hardware thread, at least 64), comma-separated";
  std::string_view rest(value);
  for (;;) {
    const std::size_t comma = rest.find(',');
    std::string item(rest.substr(0, comma));
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!integer_in_range(1, max_cpu_threads())(item).empty()) throw UsageError(refusal);
    if (comma == std::string_view::npos) return;
    rest.remove_prefix(comma + 1);
  }
}

void use_cpu_threads(int threads) {
#ifdef _OPENMP
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

}  // namespace gpgpu
