// The width sweep of paper 000 (Fig. 19, Tables 1-2): the height fixed, the width varied around
// 512, every variant verified at every width, then timed; the paper's seconds beside ours. The
// loop over widths and variants is the core's (gpgpu::Chapter::sweep); here are the widths, the
// measurement of one point, and the report.
#include <algorithm>
#include <array>
#include <utility>
#include <cmath>
#include <ostream>

#include "gpgpu/points.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {
namespace {

// The paper's machines in Tables 1-2, and their columns in the sweep's table.
constexpr std::array<std::pair<std::string_view, const char*>, 3> kPaperMachines{
    {{"PH 280", "then PH 280"}, {"AT 8800GT", "then 8800GT"}, {"OP 8600GT", "then 8600GT"}}};

const auto cell = format_cell;

// The paper's seconds for 1000 iterations at `width` x 1024 (Tables 1-2), NaN where it has none.
double paper_seconds(std::string_view implementation, std::string_view machine, int width) {
  for (const paper000::SweepRow& row : paper000::kSweep) {
    if (row.implementation != implementation || row.machine != machine) continue;
    for (std::size_t w = 0; w < paper000::kSweepWidths.size(); ++w)
      if (paper000::kSweepWidths[w] == width) return row.seconds[w];
  }
  return std::nan("");
}

}  // namespace

std::vector<Grid> Problem::sweep_sizes(const CoreOptions&) const {
  std::vector<int> widths;
  if (sweep_ == "paper") widths.assign(paper000::kSweepWidths.begin(), paper000::kSweepWidths.end());
  if (sweep_ == "wide") {
    for (int x = 480; x <= 544; ++x) widths.push_back(x);       // two 32-float periods around the paper's 512
    for (int x = 1024; x <= 1056; x += 4) widths.push_back(x);  // and the paper's 1024
  }
  std::vector<Grid> grids;
  for (int w : widths) {
    grids.push_back({w, options_.grid.ny});
    validate_grid(grids.back());
  }
  return grids;
}

void Problem::begin_sweep(Experiment& run, std::ostream& out) {
  const std::vector<Grid> grids = sweep_sizes(run.options());
  out << "Width sweep (paper Fig. 19, Tables 1-2): height " << options_.grid.ny << ", widths " << grids.front().nx
      << " .. " << grids.back().nx << "; each point verified after " << std::min(kSweepVerifyIters, options_.iters)
      << " iterations, then " << options_.iters << " iterations timed (median of " << run.options().repeat << ")\n";
}

ResultRow Problem::measure_point(Experiment& run, const Variant& v) {
  const auto solver = v.make(system_, run.session_of(v.info));
  solver->reset(x0_);
  solver->iterate(reference_iters_, static_cast<float>(options_.omega));
  ResultRow p = run.row_for(v.info);
  p.check = compare_normwise(solver->solution(), reference_, jacobi_tolerance(reference_iters_));
  p.samples = repeat_runs(run.options().warmup, run.options().repeat, [&] {
    solver->reset(x0_);
    return solver->iterate(options_.iters, static_cast<float>(options_.omega));
  });
  p.work = work(v.work, options_.grid, options_.iters);
  p.limit = limit_of(run, v);
  p.extra["width"] = options_.grid.nx;
  return p;
}

int Problem::end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) {
  const int iters = options_.iters, height = options_.grid.ny;
  const auto width = [](const ResultRow& p) { return p.extra.at("width").get<int>(); };
  const auto number = [](auto f) { return [f](const ResultRow& p) { return point_number(f(p)); }; };
  std::vector<PointField> fields{
      {"width", "width", "", [&](const ResultRow& p) -> nlohmann::json { return width(p); }},
      {"height", "", "", [&](const ResultRow&) -> nlohmann::json { return height; }},
      {"variant", "variant", "", [](const ResultRow& p) -> nlohmann::json { return p.variant; }},
      {"iters", "", "", [&](const ResultRow&) -> nlohmann::json { return iters; }},
      {"", "s/1000 it.", "%.4f", number([&](const ResultRow& p) { return p.seconds() * 1000.0 / iters; })},
      {"seconds", "", "", number([](const ResultRow& p) { return p.seconds(); })},
      {"ms_per_iter", "ms/iter", "%.5f", number([](const ResultRow& p) { return p.ms_per_step(); })},
      {"gbs_min", "GB/s min", "%.1f", number([](const ResultRow& p) { return p.rates().gbs_min; })},
      {"limit", "", "", [](const ResultRow& p) -> nlohmann::json { return p.limit; }},
      {"limit_share", "% of limit", "%.1f%%", number([](const ResultRow& p) { return p.limit_share(); })},
      {"check", "check", "", [](const ResultRow& p) -> nlohmann::json { return p.check.verdict(); }},
      {"rel_error_l2", "", "", number([](const ResultRow& p) { return p.check.rel_l2; })}};
  for (const auto& [machine, header] : kPaperMachines)  // then: the paper's seconds per 1000 iterations
    fields.push_back({"", header, "%.3f",
                      number([&, m = machine](const ResultRow& p) { return paper_seconds(p.paper_name, m, width(p)); })});
  out << "\nSweep results (now: seconds for 1000 iterations from the median; then: the paper's Tables 1-2):\n";
  print_points(out, points, fields);
  out << "  % of limit: minimum-traffic GB/s over the limit measured in this run for the same mix and working set\n"
         "  (the stream kernel's best run, or a verified point's where it was faster)\n";
  std::vector<const Limit*> limits;
  for (const ResultRow& p : points) limits.push_back(&p.limit);
  print_raised_limits(out, limits);
  nlohmann::json json = run.json_header("width-sweep");
  json["chapter"]["mode"] = sweep_;
  write_points(run.options(), points, fields, std::move(json));
  const int code = print_verdict(out, points, "sweep points", true);
  out << "\n";
  return code;
}

}  // namespace gpgpu::jacobi
