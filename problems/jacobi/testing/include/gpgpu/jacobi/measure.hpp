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
///    <limit> (3015 GB/s, <working set>), measured now"
/// A kernel faster than the limit measured before it raises the limit to its own rate (100%), as the
/// chapters' tables do: no share is printed above 100%, and the line names the limit it replaced
/// (far above it, the limit was most likely measured while other work shared the device).
inline Share report(std::ostream& out, std::string_view what, const Work& work, const Limit& limit,
                    const std::function<double()>& timed_run, int repeats = 5) {
  (void)timed_run();  // warm-up: clocks, caches, first-launch costs
  std::vector<double> ms;
  for (int r = 0; r < std::max(repeats, 1); ++r) ms.push_back(1e3 * timed_run() / work.steps);
  std::sort(ms.begin(), ms.end());
  Share s;
  s.ms_min = ms.front();
  s.ms_max = ms.back();
  s.ms_median = ms[ms.size() / 2];
  s.gbs = work.bytes_min / work.steps / (s.ms_median * 1e-3) / 1e9;
  const bool beaten = s.gbs > limit.gbs;
  s.share = beaten ? 100.0 : 100.0 * s.gbs / limit.gbs;
  out << what << ": " << format_cell("%.4f", s.ms_median) << " ms/" << work.step << " (min "
      << format_cell("%.4f", s.ms_min) << ", max " << format_cell("%.4f", s.ms_max) << "), "
      << format_cell("%.1f", s.gbs) << " GB/s of minimum traffic = " << format_cell("%.1f", s.share) << "% of ";
  if (beaten)
    out << "this run, which beat " << limit.name << " (" << format_cell("%.1f", limit.gbs) << " GB/s, "
        << limit.working_set << ", measured now) and is the limit now\n";
  else
    out << limit.name << " (" << format_cell("%.1f", limit.gbs) << " GB/s, " << limit.working_set << "), measured now\n";
  return s;
}

}  // namespace gpgpu::jacobi::measure
