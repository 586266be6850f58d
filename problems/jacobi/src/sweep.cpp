#include "gpgpu/jacobi/sweep.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <optional>
#include <ostream>

#include "gpgpu/errors.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {
namespace {

// Each width is verified after this many iterations (the reference is cheap at that count), then
// timed over --iters iterations.
constexpr int kVerifyIters = 20;
constexpr std::array<std::string_view, 3> kPaperMachines{"PH 280", "AT 8800GT", "OP 8600GT"};

struct SweepPoint {
  int width;
  std::string variant;
  std::string backend;
  double seconds;  // median of the timed runs of --iters iterations
  double gbs_min;
  double best_gbs_min;  // of the fastest timed run: what may raise the limit (limit_rule.hpp)
  Limit limit;
  Verification check;
  [[nodiscard]] double limit_share() const { return gbs_min / limit.gbs; }
};

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

// A fixed, nonzero initial guess: every neighbour contributes from the first iteration.
std::vector<float> nonzero_guess(std::int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = 10.0f * std::sin(0.37f * static_cast<float>(k % 10007));
  return x;
}

}  // namespace

std::vector<int> sweep_widths(const std::string& mode) {
  if (mode == "paper") return {paper000::kSweepWidths.begin(), paper000::kSweepWidths.end()};
  std::vector<int> w;
  for (int x = 480; x <= 544; ++x) w.push_back(x);       // two 32-float periods around the paper's 512
  for (int x = 1024; x <= 1056; x += 4) w.push_back(x);  // and the paper's 1024
  return w;
}

int run_width_sweep(Chapter& chapter, std::ostream& out, const std::string& mode,
                    const std::vector<const VariantSpec*>& variants) {
  const Options& opt = chapter.options();
  const CoreOptions& core = chapter.experiment().options();
  const std::vector<int> widths = sweep_widths(mode);
  const int height = opt.grid.ny;
  out << "Width sweep (paper Fig. 19, Tables 1-2): height " << height << ", widths " << widths.front() << " .. "
      << widths.back() << "; each point verified after " << kVerifyIters << " iterations, then " << opt.iters
      << " iterations timed (median of " << core.repeat << ")\n";
  std::vector<SweepPoint> points;
  for (int width : widths) {
    const Grid grid{width, height};
    validate_grid(grid);
    const LinearSystem sys = assemble_bidomain(grid);
    const std::vector<float> x0 = nonzero_guess(grid.nodes());
    const int verify_iters = std::min(kVerifyIters, opt.iters);
    const std::vector<double> reference = jacobi_reference(sys, x0, verify_iters, opt.omega);
    for (const VariantSpec* v : variants) {
      Session& session = chapter.session_of(*v);
      const auto solver = v->make(sys, session);
      solver->reset(x0);
      solver->iterate(verify_iters, static_cast<float>(opt.omega));
      SweepPoint p{width, v->info.name, std::string(backend_name(v->info.backend)), 0, 0, 0, {},
                   compare_normwise(solver->solution(), reference, jacobi_tolerance(verify_iters))};
      const std::vector<double> samples = repeat_runs(core.warmup, core.repeat, [&] {
        solver->reset(x0);
        return solver->iterate(opt.iters, static_cast<float>(opt.omega));
      });
      p.seconds = median(samples);
      const Work w = work(v->work, grid, opt.iters);
      p.gbs_min = rates(w, p.seconds).gbs_min;
      p.best_gbs_min = rates(w, *std::min_element(samples.begin(), samples.end())).gbs_min;
      StreamMix mix = stream_mix(v->work, grid, v->threads);
      mix.pipeline = v->pipeline;
      p.limit = chapter.experiment().limit(v->info.backend, mix);
      points.push_back(std::move(p));
    }
  }
  std::vector<Judged> judged;
  for (SweepPoint& p : points) judged.push_back({p.backend, p.variant, p.best_gbs_min, p.check.pass, &p.limit});
  settle_limits(judged);

  std::vector<std::vector<std::string>> t{{"width", "variant", "s/1000 it.", "ms/iter", "GB/s min", "% of limit",
                                           "check", "then PH 280", "then 8800GT", "then 8600GT"}};
  bool all_pass = true;
  for (const SweepPoint& p : points) {
    all_pass = all_pass && p.check.pass;
    const std::string& paper = [&]() -> const std::string& {
      for (const VariantSpec* v : variants)
        if (v->info.name == p.variant) return v->info.paper_name;
      throw std::logic_error("sweep point of an unknown variant");
    }();
    std::vector<std::string> row{std::to_string(p.width), p.variant, cell("%.4f", p.seconds * 1000.0 / opt.iters),
                                 cell("%.5f", 1e3 * p.seconds / opt.iters), cell("%.1f", p.gbs_min),
                                 cell("%.1f%%", 100.0 * p.limit_share()), p.check.verdict()};
    for (std::string_view m : kPaperMachines) row.push_back(cell("%.3f", paper_seconds(paper, m, p.width)));
    t.push_back(std::move(row));
  }
  out << "\nSweep results (now: seconds for 1000 iterations from the median; then: the paper's Tables 1-2):\n";
  print_text_table(out, t, 2);
  out << "  % of limit: minimum-traffic GB/s over the limit measured in this run for the same mix and working set\n"
         "  (the stream kernel's best run, or a verified point's where it was faster)\n";
  std::vector<const Limit*> limits;
  for (const SweepPoint& p : points) limits.push_back(&p.limit);
  print_raised_limits(out, limits);

  if (!core.csv_path.empty()) {
    std::ofstream f(core.csv_path);
    if (!f) throw UsageError("cannot write '" + core.csv_path + "'");
    f << "width,height,variant,iters,seconds,ms_per_iter,gbs_min,limit_share,check,rel_error_l2\n";
    for (const SweepPoint& p : points)
      f << p.width << ',' << height << ',' << p.variant << ',' << opt.iters << ',' << p.seconds << ','
        << 1e3 * p.seconds / opt.iters << ',' << p.gbs_min << ',' << p.limit_share() << ',' << p.check.verdict() << ','
        << p.check.rel_l2 << '\n';
  }
  if (!core.json_path.empty()) {
    nlohmann::json j;
    j["schema"] = "gpgpu-then-and-now/width-sweep";
    j["schema_version"] = kResultSchemaVersion;
    j["chapter"] = {{"id", chapter.experiment().info().id}, {"program", chapter.experiment().info().program},
                    {"mode", mode}};
    j["command_line"] = chapter.cli().command_line();
    for (const SweepPoint& p : points)
      j["points"].push_back({{"width", p.width}, {"height", height}, {"variant", p.variant}, {"iters", opt.iters},
                             {"seconds", p.seconds}, {"gbs_min", p.gbs_min}, {"limit", p.limit}, {"limit_share", p.limit_share()},
                             {"check", p.check.verdict()}, {"rel_error_l2", json_number(p.check.rel_l2)}});
    std::ofstream f(core.json_path);
    if (!f || !(f << j.dump(2) << '\n')) throw UsageError("cannot write '" + core.json_path + "'");
  }
  out << "\n" << (all_pass ? "PASS" : "FAIL") << ": " << points.size()
      << " sweep points verified against the CPU double-precision reference\n";
  return all_pass ? kExitSuccess : kExitVerificationFailed;
}

}  // namespace gpgpu::jacobi
