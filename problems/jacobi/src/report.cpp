#include "gpgpu/jacobi/report.hpp"

#include <cmath>
#include <ostream>

#include "gpgpu/table.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {

void write_dump(DumpFolder& dump, const LinearSystem& sys, const std::vector<double>& reference,
                const std::vector<std::pair<std::string, std::vector<float>>>& solutions) {
  const auto nx = static_cast<std::size_t>(sys.grid.nx), ny = static_cast<std::size_t>(sys.grid.ny);
  std::vector<float> diagonals;
  diagonals.reserve(9 * nx * ny);
  for (const auto& d : sys.A.diag) diagonals.insert(diagonals.end(), d.begin(), d.end());
  dump.write("diagonals.npy", diagonals, {9, ny, nx});
  dump.write("rhs.npy", sys.rhs, {ny, nx});
  dump.write("vm.npy", sys.vm, {ny + 2, nx + 2});
  if (!reference.empty()) dump.write("reference.npy", reference, {ny, nx});
  for (const auto& [variant, x] : solutions) dump.write("solution_" + variant + ".npy", x, {ny, nx});
}

nlohmann::json print_floor_and_speedups(std::ostream& out, const std::vector<ResultRow>& rows, const CpuBaseline& cpu) {
  nlohmann::json json = nlohmann::json::object();
  std::vector<std::vector<std::string>> t{{"variant", "ms/iter", "floor ms/iter", "time/floor", "x CPU 1 thread",
                                           "x CPU " + std::to_string(cpu.threads) + " threads",
                                           "paper: GTX 280 x Phenom 1 thread"}};
  double paper_cpu = 0;
  for (const paper000::Result& r : paper000::kResults1024)
    if (r.machine == "PH 280" && r.implementation == "CPU") paper_cpu = r.seconds;
  for (const ResultRow& r : rows) {
    const double s = r.seconds() / r.work.steps;
    const double floor = floor_seconds(r.work, r.limit.gbs) / r.work.steps;
    double paper = std::nan("");
    for (const paper000::Result& p : paper000::kResults1024)
      if (p.machine == "PH 280" && p.implementation == r.paper_name) paper = paper_cpu / p.seconds;
    t.push_back({r.variant, fmt("%.4f", 1e3 * s), fmt("%.4f", 1e3 * floor), fmt("%.3f", s / floor),
                 fmt("%.1f", cpu.single_thread_s_per_iter / s), fmt("%.1f", cpu.multi_thread_s_per_iter / s),
                 fmt("%.2f", paper)});
    json[r.variant] = {{"ms_per_iter", 1e3 * s},
                       {"floor_ms_per_iter", 1e3 * floor},
                       {"time_over_floor", s / floor},
                       {"speedup_cpu_1_thread", cpu.single_thread_s_per_iter / s},
                       {"speedup_cpu_n_threads", cpu.multi_thread_s_per_iter / s}};
  }
  out << "\nAgainst the floor and the CPU:\n";
  print_text_table(out, t, 1);
  out << "  floor = minimum bytes per iteration / the variant's limit above: no kernel that moves those bytes\n"
         "  through that memory level can be faster. CPU = chapter 01's faster layout on this host, same system, "
      << cpu.sample_iters << " sampled iterations (best of 3).\n";
  return json;
}

}  // namespace gpgpu::jacobi
