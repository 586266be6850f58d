/// @file measure.hpp
/// @brief The harness of the measurement exercises: a student's kernel timed on its device, its
/// rate of minimum traffic held against the limit the same device reaches for the same read:write
/// mix, measured in the same process, and one line that says so.
///
/// @code
///   const gpgpu::Work w = gpgpu::jacobi::work("jacobi9", grid, kIters);
///   const gpgpu::Limit limit = session.stream_limit(gpgpu::jacobi::stream_mix("jacobi9", grid));
///   gpgpu::jacobi::measure::report(std::cout, "your kernel", w, limit, [&] { return solver.iterate(kIters, omega); });
/// @endcode
/// It asserts nothing about time (a time is no test: it depends on the machine and its load); the
/// check that calls it asserts that the measured kernel computed the right result.
#pragma once
#include <algorithm>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::jacobi::measure {

/// What one measurement found.
struct Share {
  double ms_min = 0, ms_median = 0, ms_max = 0;  ///< milliseconds per step (iteration)
  double gbs = 0;                                ///< 1e9 B/s of minimum traffic at the median time
  double share = 0;                              ///< gbs over the limit, in percent
};

/// Runs `timed_run` (one run of `work`, returning its seconds by the device's own clock) once
/// untimed, then `repeats` times, and prints
///   "<what>: 0.2671 ms/iter (min 0.2660, max 0.2690), 2962 GB/s of minimum traffic = 98.2% of
///    <limit as describe_limit writes it>, measured now"
/// The limit is judged by the chapters' rule (gpgpu/limit_rule.hpp): a kernel whose best run beats
/// the stream kernel is the limit, named in the line, so no share is above 100% (far above the stream
/// kernel, its figure was most likely measured while other work shared the device). The kernel's
/// result is the caller's to verify (a wrong one proves no bandwidth).
inline Share report(std::ostream& out, std::string_view what, const Work& work, Limit limit,
                    const std::function<double()>& timed_run, int repeats = 5) {
  (void)timed_run();  // warm-up: clocks, caches, first-launch costs
  std::vector<double> ms;
  for (int r = 0; r < std::max(repeats, 1); ++r) ms.push_back(1e3 * timed_run() / work.steps);
  std::sort(ms.begin(), ms.end());
  Share s;
  s.ms_min = ms.front();
  s.ms_max = ms.back();
  s.ms_median = ms[ms.size() / 2];
  const auto rate = [&](double ms_per_step) { return work.bytes_min / work.steps / (ms_per_step * 1e-3) / 1e9; };
  s.gbs = rate(s.ms_median);
  settle_limits({Judged{"", std::string(what), rate(s.ms_min), !work.reuses_across_steps, &limit}});
  s.share = 100.0 * s.gbs / limit.gbs;
  out << what << ": " << format_cell("%.4f", s.ms_median) << " ms/" << work.step << " (min "
      << format_cell("%.4f", s.ms_min) << ", max " << format_cell("%.4f", s.ms_max) << "), "
      << format_cell("%.1f", s.gbs) << " GB/s of minimum traffic = " << format_cell("%.1f", s.share) << "% of "
      << describe_limit(limit) << ", measured now\n";
  return s;
}

}  // namespace gpgpu::jacobi::measure
