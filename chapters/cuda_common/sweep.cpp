#include "sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>

#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda_jacobi.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/paper000.hpp"
#include "gpgpu/reference.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/report.hpp"
#include "paper_figures.hpp"

namespace cuda_chapter {
namespace {

namespace cj = gpgpu::cuda_jacobi;

// Each width is verified after this many iterations (the reference is cheap at that count), then
// timed over --iters iterations.
constexpr int kVerifyIters = 20;
constexpr std::array<std::string_view, 3> kPaperMachines{"PH 280", "AT 8800GT", "OP 8600GT"};

std::vector<int> sweep_widths(const std::string& mode) {
  if (mode == "paper") return {gpgpu::paper000::kSweepWidths.begin(), gpgpu::paper000::kSweepWidths.end()};
  std::vector<int> w;
  for (int x = 480; x <= 544; ++x) w.push_back(x);     // two 32-float periods around the paper's 512
  for (int x = 1024; x <= 1056; x += 4) w.push_back(x);  // and the paper's 1024
  return w;
}

struct SweepPoint {
  int width;
  std::string variant;
  double seconds;  // median of the timed runs of opt.iters iterations
  double gbs_min;
  double limit_share;
  gpgpu::Verification check;
};

const auto cell = gpgpu::format_cell;

double paper_or_nan(const std::string& variant, std::string_view machine, int width) {
  const auto s = sweep_seconds(cj::variant_info(variant).paper_name, machine, width);
  return s ? *s : NAN;
}

// A fixed, nonzero initial guess: every neighbour contributes from the first iteration.
std::vector<float> initial_guess(std::int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = 10.0f * std::sin(0.37f * static_cast<float>(k % 10007));
  return x;
}

void write_csv(const std::string& path, int height, int iters, const std::vector<SweepPoint>& points) {
  std::ofstream f(path);
  if (!f) throw gpgpu::UsageError("cannot write '" + path + "'");
  f << "width,height,variant,iters,seconds,seconds_per_1000_iters,ms_per_iter,gbs_min,limit_share,check,rel_error_l2,"
       "paper_ph280_s,paper_at8800gt_s,paper_op8600gt_s\n";
  for (const SweepPoint& p : points) {
    f << p.width << ',' << height << ',' << p.variant << ',' << iters << ',' << p.seconds << ','
      << p.seconds * 1000.0 / iters << ',' << 1e3 * p.seconds / iters << ',' << p.gbs_min << ',' << p.limit_share
      << ',' << p.check.verdict() << ',' << p.check.rel_l2;
    for (std::string_view m : kPaperMachines) {
      const double s = paper_or_nan(p.variant, m, p.width);
      f << ',';
      if (std::isfinite(s)) f << s;
    }
    f << '\n';
  }
}

}  // namespace

int run_sweep(std::ostream& out, const ChapterSpec& spec, const gpgpu::CommonOptions& opt, const CudaOptions& cuda,
              const GpuContext& gpu) {
  const std::vector<int> widths = sweep_widths(cuda.sweep);
  const int height = opt.grid.ny;
  out << "Width sweep (paper Fig. 19, Tables 1-2): height " << height << ", widths " << widths.front() << " .. "
      << widths.back() << "; each point verified after " << kVerifyIters << " iterations, then " << opt.iters
      << " iterations timed (median of " << opt.repeat << ")\n";
  std::vector<SweepPoint> points;
  for (int width : widths) {
    const gpgpu::Grid grid{width, height};
    gpgpu::validate_grid(grid);
    const gpgpu::LinearSystem sys = gpgpu::assemble_bidomain(grid);
    const std::vector<float> x0 = initial_guess(grid.nodes());
    const int verify_iters = std::min(kVerifyIters, opt.iters);
    const std::vector<double> reference = gpgpu::jacobi_reference(sys, x0, verify_iters, opt.omega);
    for (const std::string& name : opt.variants) {
      auto solver = cj::make_solver(name, sys, cuda.launch);
      solver->upload(x0);
      solver->run(verify_iters, static_cast<float>(opt.omega));
      SweepPoint p{width, name, 0, 0, 0,
                   gpgpu::verify_solution(solver->download(), reference, gpgpu::jacobi_tolerance(verify_iters))};
      p.seconds = gpgpu::median(gpgpu::repeat_runs(opt, [&] {
        solver->upload(x0);
        return solver->run(opt.iters, static_cast<float>(opt.omega));
      }));
      const gpgpu::Rates r = gpgpu::rates(gpgpu::work_counts(solver->info().work), static_cast<double>(grid.nodes()),
                                          opt.iters, p.seconds);
      p.gbs_min = r.gbs_min;
      p.limit_share = r.gbs_min / gpu.limit.gbs;
      points.push_back(std::move(p));
    }
  }

  std::vector<std::vector<std::string>> t{{"width", "variant", "s/1000 it.", "ms/iter", "GB/s min", "% of limit",
                                           "check", "then PH 280", "then 8800GT", "then 8600GT"}};
  bool all_pass = true;
  for (const SweepPoint& p : points) {
    all_pass = all_pass && p.check.pass;
    std::vector<std::string> row{std::to_string(p.width), p.variant, cell("%.4f", p.seconds * 1000.0 / opt.iters),
                                 cell("%.5f", 1e3 * p.seconds / opt.iters), cell("%.1f", p.gbs_min),
                                 cell("%.1f%%", 100.0 * p.limit_share), p.check.verdict()};
    for (std::string_view m : kPaperMachines) row.push_back(cell("%.3f", paper_or_nan(p.variant, m, p.width)));
    t.push_back(std::move(row));
  }
  out << "\nSweep results (" << spec.info.program << ", now: " << gpu.device.name << "; then: seconds for 1000 iterations"
      << " from the paper's Tables 1-2):\n";
  gpgpu::print_text_table(out, t, 2);
  out << "  % of limit: minimum-traffic GB/s over the copy bandwidth measured in this run (" << cell("%.1f", gpu.limit.gbs)
      << " GB/s)\n";
  if (!opt.csv_path.empty()) write_csv(opt.csv_path, height, opt.iters, points);
  if (!opt.json_path.empty()) {
    nlohmann::json j;
    j["chapter"] = {{"id", spec.info.id}, {"program", spec.info.program}, {"mode", "width sweep " + cuda.sweep}};
    j["device"] = gpu.json();
    for (const SweepPoint& p : points)
      j["points"].push_back({{"width", p.width}, {"height", height}, {"variant", p.variant}, {"iters", opt.iters},
                             {"seconds", p.seconds}, {"gbs_min", p.gbs_min}, {"limit_share", p.limit_share},
                             {"check", p.check.verdict()}, {"rel_error_l2", p.check.rel_l2}});
    std::ofstream f(opt.json_path);
    if (!f || !(f << j.dump(2) << '\n')) throw gpgpu::UsageError("cannot write '" + opt.json_path + "'");
  }
  out << "\n" << (all_pass ? "PASS" : "FAIL") << ": " << points.size() << " sweep points verified against the CPU "
      << "double-precision reference\n";
  return all_pass ? gpgpu::kExitSuccess : gpgpu::kExitVerificationFailed;
}

}  // namespace cuda_chapter
