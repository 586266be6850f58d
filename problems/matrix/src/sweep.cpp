// Paper 003's sizes in one run (Tabs. 8-10: n x n for n = 16, 32, ..., 4096), and beyond the L2:
// every chosen variant verified and timed at every n, kernel alone and with its copies, its GB/s by
// the paper's formula (1) and its share of the limit measured at that n for its read:write mix;
// then each port over its original against n, beside the paper's ratios (20x at n = 16, 2.2x at
// 4096 in Tab. 10). The loop over sizes and variants is the core's (gpgpu::Chapter::sweep); here
// are the sizes, the report and the files, saved after every n.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <utility>

#include "gpgpu/points.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/matrix/chapter.hpp"
#include "gpgpu/matrix/paper003.hpp"

namespace gpgpu::matrix {
namespace {

// Sizes beyond the paper's: past the H100's 50 MB L2 (8192²: 256 MiB per float matrix; 16384²:
// 1 GiB) every operand streams from DRAM.
constexpr int kWideSizes[] = {8192, 16384};
constexpr std::int64_t kQuickLargest = 256;

std::int64_t n_of(const ResultRow& r) { return r.extra.at("n").get<std::int64_t>(); }
double gbs_with_copies(const ResultRow& r) { return r.work.bytes_min / r.work.steps / (ms_with_copies(r) * 1e-3) / 1e9; }

// The paper's time at n for the variant's namesake and its table, or NaN and "" (the later table
// where two print the name: Tab. 10's CUDA ran on the card Tab. 10's OpenCL ran on).
std::pair<double, std::string> paper_time(const ResultRow& r, Op op) {
  const int index = n_of(r) <= 4096 ? paper003::size_index(static_cast<int>(n_of(r))) : -1;
  for (auto it = paper003::kAddTranspose.rbegin(); index >= 0 && it != paper003::kAddTranspose.rend(); ++it)
    if (it->operation == op_name(op) && !r.paper_name.empty() && it->implementation == r.paper_name)
      return {it->ms[static_cast<std::size_t>(index)], std::string(it->table) + " (" + std::string(it->element_type) + ")"};
  return {std::nan(""), ""};
}

}  // namespace

std::vector<Size> Problem::sweep_sizes(const CoreOptions& core) const {
  if (sweep_.empty()) return {};
  std::vector<Size> sizes;
  for (int n : paper003::kSizes) sizes.push_back({{n, n}, options_.type});
  if (sweep_ == "wide")
    for (int n : kWideSizes) sizes.push_back({{n, n}, options_.type});
  if (core.quick) std::erase_if(sizes, [](const Size& s) { return s.shape.rows > kQuickLargest; });
  return sizes;
}

void Problem::begin_sweep(Experiment& run, std::ostream& out) {
  const std::vector<Size> sizes = sweep_sizes(run.options());
  out << "Sweep (paper 003, Tabs. 8-10): n x n for n = " << sizes.front().shape.rows << " ... "
      << sizes.back().shape.rows << ", " << type_name(options_.type) << ", " << options_.calls
      << " call(s) per timed run, median of " << run.options().repeat << "; every point verified before it is timed\n";
  // The start-up steps are known once the backends are open: printed at the end, saved with every n.
  std::ostringstream text;
  startup_ = print_startup(text, run);
  startup_text_ = text.str();
}

// Every point's fields: its table row and what --csv and --json hold of it (with the port ratios
// of its n).
std::vector<PointField> Problem::point_fields(const std::vector<PortRatio>& ratios) const {
  const auto number = [](auto f) { return [f](const ResultRow& r) { return point_number(f(r)); }; };
  const auto text = [](auto f) { return [f](const ResultRow& r) -> nlohmann::json { return f(r); }; };
  // The port ratio of a point, by which of its numbers: NaN where the point is no port that ran beside its original.
  const auto port = [&ratios](double PortRatio::*ratio) {
    return [ratios, ratio](const ResultRow& r) {
      for (const PortRatio& q : ratios)
        if (q.n == n_of(r) && q.variant == r.variant) return point_number(q.*ratio);
      return point_number(std::nan(""));
    };
  };
  const ElementType type = options_.type;
  const int calls = options_.calls;
  return {{"n", "n", "", text([](const ResultRow& r) { return n_of(r); })},
          {"type", "", "", text([type](const ResultRow&) { return std::string(type_name(type)); })},
          {"calls", "", "", text([calls](const ResultRow&) { return calls; })},
          {"variant", "variant", "", text([](const ResultRow& r) { return r.variant; })},
          {"backend", "", "", text([](const ResultRow& r) { return r.backend; })},
          {"op", "", "", text([this](const ResultRow& r) { return std::string(op_name(variant_of(r).op)); })},
          {"ms_kernel", "ms kernel", "%.4f", number([](const ResultRow& r) { return r.ms_per_step(); })},
          {"ms_with_copies", "ms w/ copies", "%.4f", number(ms_with_copies)},
          {"gbs_kernel", "GB/s", "%.1f", number([](const ResultRow& r) { return r.rates().gbs_min; })},
          {"gbs_with_copies", "GB/s w/ copies", "%.2f", number(gbs_with_copies)},
          {"limit", "", "", text([](const ResultRow& r) { return nlohmann::json(r.limit); })},
          {"limit_gbs", "", "", number([](const ResultRow& r) { return r.limit.gbs; })},
          {"limit_share", "% of limit", "%.1f%%", number([](const ResultRow& r) { return r.limit_share(); })},
          {"check", "check", "", text([](const ResultRow& r) { return r.check.verdict(); })},
          {"paper_ms", "then ms", "%.4f", number([this](const ResultRow& r) { return paper_time(r, variant_of(r).op).first; })},
          {"paper_table", "then", "", text([this](const ResultRow& r) { return paper_time(r, variant_of(r).op).second; })},
          {"ports", "", "", text([this](const ResultRow& r) { return variant_of(r).ports; })},
          {"port_over_original_kernel", "", "", port(&PortRatio::kernel_ratio)},
          {"port_over_original_with_copies", "", "", port(&PortRatio::copies_ratio)},
          {"paper_ratio", "", "", port(&PortRatio::paper_ratio)}};
}

// Writes --csv and --json with the points so far: after every n, so that a sweep stopped part way
// (a time limit on a batch) still leaves what it measured; "complete" says whether it ran to the end.
void Problem::save_sweep(Experiment& run, const std::vector<ResultRow>& points, bool complete) {
  const std::vector<PortRatio> ratios = port_ratios(points);
  nlohmann::json j = run.json_header("matrix-sweep");
  j["chapter"]["mode"] = sweep_;
  j["complete"] = complete;
  j["problem"] = {{"type", type_name(options_.type)}, {"calls", options_.calls}, {"repeat", run.options().repeat}};
  j["port_ratios"] = ratios;
  j["startup"] = startup_;
  write_points(run.options(), points, point_fields(ratios), std::move(j));
}

int Problem::end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) {
  out << "\nSweep results:\n";
  print_points(out, points, point_fields(port_ratios(points)));
  out << "  ms kernel: per call, median of the timed runs on the kernel's own clock; ms w/ copies: the operands up,\n"
         "  one call, the result down, host clock (the paper's kind of time). GB/s: paper 003's formula (1),\n"
         "  (bytes read + bytes written) / time. % of limit: kernel GB/s over the limit measured at the same n for\n"
         "  the same read:write mix (the stream kernel's best run, or a verified point's where it was faster).\n"
         "  then: the paper's time at n for the variant's namesake (its element type).\n";
  std::vector<const Limit*> limits;
  for (const ResultRow& r : points) limits.push_back(&r.limit);
  print_raised_limits(out, limits);
  print_port_ratios(out, port_ratios(points));
  out << startup_text_;
  if (options_.type != ElementType::f32 && options_.type != ElementType::i32)
    out << "  The paper's add rows are int and its transpose rows float (4 B each); this sweep is "
        << type_name(options_.type) << ".\n";
  return gpgpu::Problem<Variant>::end_sweep(run, out, points);  // saves it complete, prints the verdict
}

}  // namespace gpgpu::matrix
