#include "paper_figures.hpp"

#include <cmath>
#include <string>

#include "gpgpu/paper000.hpp"
#include "gpgpu/work_counts.hpp"

namespace cuda_chapter {

namespace p = gpgpu::paper000;

std::optional<double> sweep_seconds(std::string_view implementation, std::string_view machine, int width) {
  for (const p::SweepRow& row : p::kSweep) {
    if (row.implementation != implementation || row.machine != machine) continue;
    for (std::size_t w = 0; w < p::kSweepWidths.size(); ++w)
      if (p::kSweepWidths[w] == width) return row.seconds[w];
  }
  return std::nullopt;
}

std::vector<gpgpu::ThenNowRow> then_rows(std::string_view implementation) {
  if (implementation.empty()) return {};
  if (!p::results_1024(implementation).empty()) return p::then_rows(implementation);
  std::vector<gpgpu::ThenNowRow> rows;
  constexpr double kNodes = 512.0 * 1024.0 * 1000.0;  // Table 1 at width 512, 1000 iterations
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  const gpgpu::WorkCounts& work = gpgpu::work_counts("jacobi9");  // the paper's 80 B and 48 B per node
  for (const p::Machine& m : p::kMachines) {
    const auto t = sweep_seconds(implementation, m.key, 512);
    if (!t) continue;
    const double gbs_min = work.bytes_min * kNodes / *t / kGiB;
    rows.push_back({"then", std::string(m.gpu), std::string(implementation) + " (Table 1, 512 wide, x2)", 2.0 * *t,
                    NAN, work.bytes_all * kNodes / *t / kGiB, gbs_min, gbs_min / m.gpu_peak_gbs});
  }
  return rows;
}

std::optional<double> paper_speedup(std::string_view implementation) {
  double cpu = 0, gpu = 0;
  for (const p::Result& r : p::kResults1024) {
    if (r.machine != "PH 280") continue;
    if (r.implementation == "CPU") cpu = r.seconds;
    if (r.implementation == implementation) gpu = r.seconds;
  }
  if (cpu > 0 && gpu > 0) return cpu / gpu;
  return std::nullopt;
}

}  // namespace cuda_chapter
