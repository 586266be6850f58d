#include "gpgpu/blas/roofline.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "gpgpu/blas/routines.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu::blas {
namespace {

double extra_number(const ResultRow& r, const char* key) {
  return r.extra.contains(key) && r.extra[key].is_number() ? r.extra[key].get<double>() : std::nan("");
}

std::string routine_of(const ResultRow& r) { return r.extra.value("routine", std::string()); }

// Paper 001's Table 1 (sec. 3) and what it found (secs. 4.3, 5.3).
struct PaperRow {
  const char* routine;
  const char* parallelism;
  const char* load;
  const char* reuse;
  const char* found;
};
constexpr PaperRow kTable1[] = {
    {"saxpy", "high", "low", "none", "2004 and 2007: slower on the GPU than Goto BLAS on the CPU (Figs. 4, 7)"},
    {"sscal", "high", "very low", "none", "as SAXPY, a little worse: half the load per element (Figs. 4, 7)"},
    {"sgemv", "high", "high", "low, O(n)/O(1)", "2004: CPU 2-3x faster; 2007: CPU faster with transfers and at large n (Figs. 3, 6)"},
    {"sgemv_t", "high", "high", "low, O(n)/O(1)", "(the paper ran one orientation)"},
    {"sgemm", "high", "high", "high, O(n)", "2004: CPU up to 4x faster; 2007: GPU about 10x the CPU at about 20% of its peak (Figs. 3, 6)"},
    {"conv2d", "high", "high", "low", "2004: GPU faster, about 4x more with RGBA packing; 2007: up to 20x the CPU at 512² (Figs. 5, 8)"},
};

// The fastest row of a routine on one side (the CPU, or any GPU backend): kernel-only GFLOP/s and,
// for a GPU, GFLOP/s with the copies.
struct Best {
  const ResultRow* row = nullptr;
  double gflops = std::nan("");
  double with_copies = std::nan("");
  double with_pinned = std::nan("");
  double with_overlapped = std::nan("");
};
Best best_of(const std::vector<ResultRow>& rows, const std::string& routine, bool gpu) {
  Best b;
  for (const ResultRow& r : rows) {
    if (routine_of(r) != routine || (r.backend != "cpu") != gpu || (r.check.checked && !r.check.pass)) continue;
    if (r.extra.contains("flops_as_done")) continue;  // its GFLOP/s count other FLOPs than the routine's
    const double g = r.rates().gflops;
    if (b.row == nullptr || g > b.gflops) b = {&r, g, b.with_copies, b.with_pinned, b.with_overlapped};
    for (auto [key, best] : {std::pair{"gflops_with_copies", &b.with_copies}, std::pair{"gflops_with_pinned", &b.with_pinned},
                             std::pair{"gflops_with_overlapped", &b.with_overlapped}}) {
      const double c = extra_number(r, key);
      if (std::isfinite(c) && !(c <= *best)) *best = c;
    }
  }
  return b;
}

const char* binding_roof(const ResultRow& r, const Ceilings& c) {
  const double i = extra_number(r, "intensity");
  if (!std::isfinite(r.limit.gbs)) return "compute";
  return i * r.limit.gbs < c.peak.gflops || !std::isfinite(c.peak.gflops) ? "memory" : "compute";
}

}  // namespace

double attainable_gflops(const ResultRow& row, const Ceilings& c) {
  const double i = extra_number(row, "intensity");
  if (!std::isfinite(row.limit.gbs)) return c.peak.gflops;  // SGEMM: the compute roof
  return std::isfinite(c.peak.gflops) ? std::min(c.peak.gflops, i * row.limit.gbs) : i * row.limit.gbs;
}

void print_roofline(std::ostream& out, const std::map<Backend, Ceilings>& ceilings, const std::vector<ResultRow>& rows) {
  if (rows.empty()) return;
  out << "\nRoofline (both ceilings measured in this run; attainable = min(FMA peak, FLOP/B x the routine's own limit)):\n";
  std::vector<std::vector<std::string>> t{{"backend", "device", "FMA peak GFLOP/s", "stream GB/s", "ridge FLOP/B"}};
  for (const auto& [b, c] : ceilings)
    t.push_back({std::string(backend_name(b)), c.device, fmt("%.1f", c.peak.gflops), fmt("%.1f", c.bandwidth.gbs), fmt("%.2f", c.ridge())});
  print_text_table(out, t, 2);
  out << "\n";
  std::vector<std::vector<std::string>> p{{"variant", "routine", "FLOP/B", "GFLOP/s", "GB/s", "limit GB/s", "attainable", "% attainable", "roof"}};
  for (const ResultRow& r : rows) {
    const auto it = std::find_if(ceilings.begin(), ceilings.end(), [&](const auto& e) { return backend_name(e.first) == r.backend; });
    if (it == ceilings.end()) continue;
    const double a = attainable_gflops(r, it->second);
    p.push_back({r.variant, routine_of(r), fmt("%.3g", extra_number(r, "intensity")), fmt("%.2f", r.rates().gflops),
                 fmt("%.1f", r.rates().gbs_min), fmt("%.1f", r.limit.gbs), fmt("%.2f", a), fmt("%.1f%%", 100 * r.rates().gflops / a),
                 binding_roof(r, it->second)});
  }
  print_text_table(out, p, 2);
  for (const ResultRow& r : rows)
    if (r.extra.contains("flops_as_done"))
      out << "  " << r.variant << ": FLOPs as done (" << r.extra["flops_as_done"].get<std::string>()
          << "), not the routine's; Table 1 leaves it out\n";
}

nlohmann::json roofline_json(const std::map<Backend, Ceilings>& ceilings, const std::vector<ResultRow>& rows) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [b, c] : ceilings) {
    nlohmann::json points = nlohmann::json::array();
    for (const ResultRow& r : rows) {
      if (r.backend != backend_name(b)) continue;
      points.push_back({{"variant", r.variant}, {"routine", routine_of(r)}, {"library", r.extra.value("library", false)},
                        {"intensity", json_number(extra_number(r, "intensity"))}, {"gflops", json_number(r.rates().gflops)},
                        {"gbs", json_number(r.rates().gbs_min)}, {"limit_gbs", json_number(r.limit.gbs)},
                        {"attainable_gflops", json_number(attainable_gflops(r, c))},
                        {"gflops_with_copies", json_number(extra_number(r, "gflops_with_copies"))},
                        {"gflops_with_pinned", json_number(extra_number(r, "gflops_with_pinned"))},
                        {"gflops_with_overlapped", json_number(extra_number(r, "gflops_with_overlapped"))}, {"pass", r.check.pass}});
    }
    j[std::string(backend_name(b))] = {{"device", c.device}, {"peak_gflops", json_number(c.peak.gflops)},
                                       {"peak", c.peak.name}, {"bandwidth_gbs", json_number(c.bandwidth.gbs)},
                                       {"bandwidth", c.bandwidth}, {"ridge", json_number(c.ridge())}, {"points", points}};
  }
  return j;
}

nlohmann::json print_table1(std::ostream& out, const std::vector<ResultRow>& rows) {
  nlohmann::json j = nlohmann::json::array();
  std::vector<std::vector<std::string>> t{{"routine", "paper: parallelism / load / reuse", "outputs", "FLOP/output",
                                           "FLOP/input", "FLOP/B", "GPU/CPU", "w/ copies", "w/ pinned", "overlapped"}};
  for (const PaperRow& p : kTable1) {
    const auto any = std::find_if(rows.begin(), rows.end(),
                                  [&](const ResultRow& r) { return routine_of(r) == p.routine && !r.extra.contains("flops_as_done"); });
    if (any == rows.end()) continue;
    const double outputs = extra_number(*any, "outputs"), flops = any->work.flops / any->work.steps;
    const Best cpu = best_of(rows, p.routine, false), gpu = best_of(rows, p.routine, true);
    const double ratio = gpu.gflops / cpu.gflops, ratio_copies = gpu.with_copies / cpu.gflops, ratio_pinned = gpu.with_pinned / cpu.gflops,
                 ratio_overlapped = gpu.with_overlapped / cpu.gflops;
    t.push_back({p.routine, std::string(p.parallelism) + " / " + p.load + " / " + p.reuse, fmt("%.3g", outputs),
                 fmt("%.3g", flops / outputs), fmt("%.3g", flops / extra_number(*any, "inputs")),
                 fmt("%.3g", extra_number(*any, "intensity")), fmt("%.2fx", ratio), fmt("%.2fx", ratio_copies),
                 fmt("%.2fx", ratio_pinned), fmt("%.2fx", ratio_overlapped)});
    j.push_back({{"routine", p.routine}, {"paper", {{"parallelism", p.parallelism}, {"load", p.load}, {"reuse", p.reuse}, {"found", p.found}}},
                 {"outputs", outputs}, {"flop_per_output", flops / outputs}, {"flop_per_input", flops / extra_number(*any, "inputs")},
                 {"intensity", json_number(extra_number(*any, "intensity"))},
                 {"best_cpu", cpu.row ? cpu.row->variant : ""}, {"best_gpu", gpu.row ? gpu.row->variant : ""},
                 {"cpu_gflops", json_number(cpu.gflops)}, {"gpu_gflops", json_number(gpu.gflops)},
                 {"gpu_gflops_with_copies", json_number(gpu.with_copies)}, {"gpu_over_cpu", json_number(ratio)},
                 {"gpu_with_copies_over_cpu", json_number(ratio_copies)}, {"gpu_with_pinned_over_cpu", json_number(ratio_pinned)},
                 {"gpu_with_overlapped_over_cpu", json_number(ratio_overlapped)}});
  }
  if (j.empty()) return j;
  out << "\nPaper 001's Table 1, rebuilt (outputs: independent results per call, the data parallelism; FLOP/output: the\n"
         "load per element; FLOP/input: arithmetic per input element, the reuse; FLOP/B: per byte of minimum traffic;\n"
         "GPU/CPU: the best verified GPU variant's GFLOP/s over the best CPU one's, kernel only, with pageable copies,\n"
         "with page-locked (pinned) copies, and with pinned copies overlapped with the calls in chunks on streams;\n"
         "every rate on the routine's own FLOP count, so a variant that counts other FLOPs, such as the separable\n"
         "convolution, is left out):\n";
  print_text_table(out, t, 2);
  out << "  What the paper found:\n";
  for (const PaperRow& p : kTable1)
    if (std::any_of(j.begin(), j.end(), [&](const nlohmann::json& e) { return e["routine"] == p.routine; }))
      out << "    " << std::left << std::setw(8) << p.routine << std::right << " " << p.found << "\n";
  return j;
}

ThenNowTable machines_then_now(const std::map<Backend, Ceilings>& ceilings) {
  ThenNowTable t;
  t.title = "The machines: paper 001's (Tables 2 and 3) and this run's";
  t.columns = {{"peak GFLOP/s", "single-precision peak (then: the data sheet; now: the FMA kernel)", "%.1f"},
               {"memory GB/s", "memory bandwidth (then: the data sheet; now: the stream kernel, 1:1)", "%.1f"}};
  const double none = std::nan("");
  t.rows = {{"then", "AMD Athlon XP 2400+ (2004)", "CPU", "paper 001, Tab. 2", {8, 2.1}},
            {"then", "NVIDIA GeForce 6200, NV44A (2004), AGP 8x 2 GB/s", "GPU", "paper 001, Tab. 2", {11.2, 4}},
            {"then", "Intel Core 2 Duo E6320 (2007)", "CPU", "paper 001, Tab. 3", {14.9, 5.3}},
            {"then", "NVIDIA GeForce 8800 Ultra, G80 (2007), PCIe x16 4 GB/s", "GPU", "paper 001, Tab. 3", {520, 86.4}}};
  for (const auto& [b, c] : ceilings)
    t.rows.push_back({"now", c.device, std::string(backend_name(b)), "this run", {c.peak.gflops, c.bandwidth.gbs > 0 ? c.bandwidth.gbs : none}});
  t.notes = {"paper 001: \"the peak performance of the Nvidia G80 is about 20 times higher than that of the Nvidia NV44, but the",
             "speed of the interconnection bus ... is only twice as fast\"; this run's bus rate is the 'GB/s w/ copies' of the results"};
  return t;
}

}  // namespace gpgpu::blas
