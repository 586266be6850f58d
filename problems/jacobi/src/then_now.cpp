#include "gpgpu/jacobi/then_now.hpp"

#include <cmath>
#include <optional>

#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {
namespace {

namespace p = paper000;
constexpr double kNodes1024 = 1024.0 * 1024.0 * 1000.0;  // node updates of the paper's 1000 iterations at 1024²
const double kNaN = std::nan("");

// Table 1 (or 2) at width 512, height 1024: the kernels the paper timed only in its sweep.
std::optional<double> width512_seconds(const std::string& implementation, std::string_view machine) {
  for (const p::SweepRow& row : p::kSweep)
    if (row.implementation == implementation && row.machine == machine) return row.seconds[2];  // widths 508 511 512 ...
  return std::nullopt;
}

void add_paper_rows(ThenNowTable& t, const std::string& implementation) {
  const bool cpu = implementation == "CPU";
  const std::vector<p::Result> published = p::results_1024(implementation);
  for (const p::Result& r : published) {
    const p::Machine* m = p::machine(r.machine);
    const double share = cpu ? r.gbs_all / m->cpu_peak_gbs : r.gbs_device / m->gpu_peak_gbs;
    t.rows.push_back({"then", std::string(cpu ? m->cpu : m->gpu), std::string(r.implementation),
                      "paper 000, " + std::string(r.table),
                      {r.seconds, r.gflops, p::flops_per_node(implementation), r.gbs_all, r.gbs_device,
                       p::device_bytes_per_node(implementation), 100.0 * share, kNaN}});
  }
  if (!published.empty()) return;
  for (const p::Machine& m : p::kMachines) {
    const auto seconds = width512_seconds(implementation, m.key);
    if (!seconds) continue;
    const double nodes = 512.0 * 1024.0 * 1000.0;
    const double device = p::device_bytes_per_node(implementation) * nodes / *seconds / p::kGiB;
    t.rows.push_back({"then", std::string(m.gpu), implementation + " (512 wide, x2)", "paper 000, Table 1",
                      {2.0 * *seconds, kNaN, kNaN, p::kAllBytesPerNode * nodes / *seconds / p::kGiB, device,
                       p::device_bytes_per_node(implementation), 100.0 * device / m.gpu_peak_gbs, kNaN}});
  }
}

}  // namespace

ThenNowTable then_now(const std::vector<std::string>& implementations, const std::vector<ResultRow>& rows) {
  ThenNowTable t;
  t.title = "Then (paper 000) and now (this run), in the paper's units";
  t.columns = {
      {"s/1000 it.", "seconds for 1000 iterations at 1024 x 1024 (now: from the measured node rate at this run's size)",
       "%.3f"},
      {"GFLOP/s", "1e9 FLOP/s, counting the FLOP/node of the next column", "%.2f"},
      {"FLOP/node", "the paper's count for its implementation (CPU 37, OpenGL 36, CUDA Shared 30, CUDA Texture 33), "
                    "applied to ours of the same name; 20 (work.hpp) where the paper has none",
       "%.0f"},
      {"GB/s all", "2^30 B/s of all accesses, 80 B per node (Tables 6, 7)", "%.2f"},
      {"GB/s dev", "2^30 B/s of device-memory traffic at the B/node of the next column (Table 8)", "%.2f"},
      {"B/node", "the paper's device count (48; 56 for CUDA Shared); ours: the minimum traffic (48; 32 symmetric)",
       "%.0f"},
      {"% peak", "then: GB/s dev over the GPU's theoretical peak (CPU: GB/s all over the CPU's); now: minimum-traffic "
                 "GB/s over the theoretical bandwidth from the memory clock and bus width, where the API reports them",
       "%.1f%%"},
      {"% limit", "now only: minimum-traffic GB/s over the limit measured in this run (same read:write mix)", "%.1f%%"},
  };
  for (const std::string& implementation : implementations) add_paper_rows(t, implementation);
  for (const ResultRow& r : rows) {
    if (r.work.items <= 0 || !(r.seconds() > 0)) continue;
    const double node_rate = r.work.items / r.seconds();
    const double paper_flops = p::flops_per_node(r.paper_name);
    const double flops = std::isfinite(paper_flops) ? paper_flops : r.work.flops / r.work.items;
    const double bytes_min = r.work.bytes_min / r.work.items;
    t.rows.push_back({"now", r.device, r.variant, "this run",
                      {kNodes1024 / node_rate, flops * node_rate / 1e9, flops, p::kAllBytesPerNode * node_rate / p::kGiB,
                       bytes_min * node_rate / p::kGiB, bytes_min,
                       // No share of a bandwidth for code that does not move the minimum bytes (07c)
                       r.work.reuses_across_steps ? std::nan("") : 100.0 * r.rates().gbs_min / r.limit.theoretical_gbs,
                       100.0 * r.limit_share()}});
  }
  t.notes.push_back("GB/s here are 2^30-byte gigabytes, as the paper's; the result table above uses 1e9.");
  return t;
}

}  // namespace gpgpu::jacobi
