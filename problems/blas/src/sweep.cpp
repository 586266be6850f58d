#include "gpgpu/blas/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <ostream>

#include "gpgpu/blas/paper003_multiply.hpp"
#include "gpgpu/blas/report.hpp"
#include "gpgpu/blas/work.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {
namespace {

const auto fmt = format_cell;

struct Point {
  std::int64_t n = 0;
  const VariantSpec* spec = nullptr;
  double ms = 0;              // per product, median of the timed runs, device clock
  double ms_with_copies = 0;  // A and B up, one product, C down, host clock
  double gflops = 0;       // of the median run
  double best_gflops = 0;  // of the fastest run: what the peak rule compares
  double library_share = std::nan("");
  double peak_share = std::nan("");
  Verification check;
  double paper_ms = std::nan("");
};

double paper_ms(const VariantSpec& v, ElementType type, std::int64_t n) {
  const int index = n <= 4096 ? paper003::size_index(static_cast<int>(n)) : -1;
  const paper003::TimeRow* row = paper003::multiply_row(type == ElementType::f64 ? "Tab. 5" : "Tab. 4", v.info.paper_name);
  return index < 0 || row == nullptr ? std::nan("") : row->ms[static_cast<std::size_t>(index)];
}

}  // namespace

std::vector<Dims> sweep_dims(const std::string& mode, bool quick) {
  std::vector<Dims> dims;
  for (int n : paper003::kSizes) dims.push_back({n, n, n});
  if (mode == "wide") dims.push_back({8192, 8192, 8192});
  if (quick) std::erase_if(dims, [](const Dims& d) { return d.n > 256; });
  return dims;
}

int run_sweep(Chapter& chapter, std::ostream& out, const std::vector<const VariantSpec*>& variants) {
  Experiment& experiment = chapter.experiment();
  const CoreOptions& core = experiment.options();
  const Options& opt = chapter.options();
  const std::vector<Dims> sizes = sweep_dims(chapter.sweep_mode(), core.quick);
  out << "Sweep (paper 003, Tabs. 4-7): n x n x n for n = " << sizes.front().n << " ... " << sizes.back().n << ", "
      << matrix::type_name(opt.type) << ", median of " << core.repeat << "; every point checked against γ_k |A||B|\n";
  std::vector<Point> points;
  std::vector<matrix::PortRatio> ratios;
  for (const Dims& d : sizes) {
    chapter.set_dims(d);
    (void)chapter.make_inputs();
    out << "  n = " << d.n << ":" << std::flush;
    const std::size_t first = points.size();
    for (const VariantSpec* v : variants) {
      if (v->limitation)
        if (const auto why = v->limitation(d, opt.type, chapter.session_of(*v))) {
          out << " " << v->info.name << " (skipped: " << *why << ")";
          continue;
        }
      const Measurement m = chapter.measure(*v);
      Point p;
      p.n = d.n;
      p.spec = v;
      p.ms = 1e3 * median(m.samples) / opt.calls;
      p.ms_with_copies = 1e3 * median(m.with_copies_s);
      p.gflops = rates(gemm_work(d, opt.type, opt.calls), median(m.samples)).gflops;
      p.best_gflops = rates(gemm_work(d, opt.type, opt.calls), *std::min_element(m.samples.begin(), m.samples.end())).gflops;
      p.check = m.check;
      p.paper_ms = paper_ms(*v, opt.type, d.n);
      out << " " << v->info.name << (p.check.checked && !p.check.pass ? " FAIL" : "") << std::flush;
      points.push_back(std::move(p));
    }
    out << "\n";
    // % of the library of the same arithmetic at this n, and the ports over their originals at this n.
    for (std::size_t i = first; i < points.size(); ++i) {
      Point& p = points[i];
      for (std::size_t j = first; j < points.size(); ++j) {
        const Point& o = points[j];
        const bool judge = o.spec->library && o.spec->tf32 == p.spec->tf32 &&
                           (o.spec->info.backend == p.spec->info.backend ||
                            (p.spec->info.backend == Backend::opencl && o.spec->info.backend == Backend::cuda));
        if (judge && std::isnan(p.library_share)) p.library_share = p.gflops / o.gflops;
        if (o.spec->info.name == p.spec->ports) {
          matrix::PortRatio r;
          r.n = d.n;
          r.variant = p.spec->info.name;
          r.original = o.spec->info.name;
          r.kernel_ratio = p.ms / o.ms;
          r.copies_ratio = p.ms_with_copies / o.ms_with_copies;
          r.paper_ratio = paper_port_ratio(opt.type, p.spec->info.paper_name, o.spec->info.paper_name, d.n, &r.paper_table);
          ratios.push_back(std::move(r));
        }
      }
    }
  }

  // The compute roof as a limit (kernel.hpp: settle_peak): a verified point on FMA units that beat it sets it.
  std::vector<PeakRun> runs;
  for (const Point& p : points)
    if (!p.spec->tensor_cores(opt.type))
      runs.push_back({std::string(backend_name(p.spec->info.backend)), p.spec->info.name + " at n = " + std::to_string(p.n),
                      p.best_gflops, !p.check.checked || p.check.pass});
  chapter.settle_peaks(out, runs);
  for (Point& p : points) p.peak_share = chapter.peak_share(*p.spec, p.gflops);

  out << "\nSweep results:\n";
  std::vector<std::vector<std::string>> t{{"n", "variant", "ms kernel", "ms w/ copies", "GFLOP/s", "% library",
                                           "% FMA peak", "check", "then ms"}};
  for (const Point& p : points)
    t.push_back({std::to_string(p.n), p.spec->info.name, fmt("%.4f", p.ms), fmt("%.4f", p.ms_with_copies),
                 fmt("%.1f", p.gflops), fmt("%.1f%%", 100 * p.library_share), fmt("%.1f%%", 100 * p.peak_share),
                 p.check.verdict(), fmt("%.4f", p.paper_ms)});
  print_text_table(out, t, 2);
  out << "  then ms: the paper's time at n for the variant's namesake (" << (opt.type == ElementType::f64 ? "Tab. 5, Tesla C1060" : "Tab. 4, GeForce 8800GT")
      << "), copies included.\n";
  matrix::print_port_ratios(out, ratios);
  const nlohmann::json startup = matrix::print_startup(out, experiment);

  if (!core.csv_path.empty()) {
    std::ofstream f(core.csv_path);
    f << "n,type,variant,backend,ms_kernel,ms_with_copies,gflops,library_share,peak_share,check,paper_ms\n";
    for (const Point& p : points)
      f << p.n << ',' << matrix::type_name(opt.type) << ',' << p.spec->info.name << ',' << backend_name(p.spec->info.backend)
        << ',' << p.ms << ',' << p.ms_with_copies << ',' << p.gflops << ',' << p.library_share << ',' << p.peak_share << ','
        << p.check.verdict() << ',' << p.paper_ms << '\n';
    if (!f) throw UsageError("cannot write '" + core.csv_path + "'");
  }
  if (!core.json_path.empty()) {
    nlohmann::json j;
    j["schema"] = "gpgpu-then-and-now/gemm-sweep";
    j["schema_version"] = kResultSchemaVersion;
    j["chapter"] = {{"id", experiment.info().id}, {"program", experiment.info().program}, {"mode", chapter.sweep_mode()}};
    j["command_line"] = chapter.cli().command_line();
    j["problem"] = {{"type", matrix::type_name(opt.type)}, {"calls", opt.calls}, {"repeat", core.repeat}};
    for (Backend b : {Backend::cpu, Backend::cuda, Backend::opencl})
      if (Session* s = experiment.session(b)) j["backends"][std::string(backend_name(b))] = s->json();
    j["points"] = nlohmann::json::array();
    for (const Point& p : points)
      j["points"].push_back({{"n", p.n},
                             {"variant", p.spec->info.name},
                             {"backend", backend_name(p.spec->info.backend)},
                             {"ms_kernel", p.ms},
                             {"ms_with_copies", p.ms_with_copies},
                             {"gflops", p.gflops},
                             {"library_share", json_number(p.library_share)},
                             {"peak_share", json_number(p.peak_share)},
                             {"check", p.check.verdict()},
                             {"error_over_bound", json_number(p.check.rel_max / p.check.tolerance)},
                             {"paper_ms", json_number(p.paper_ms)}});
    j["port_ratios"] = ratios;
    j["startup"] = startup;
    std::ofstream f(core.json_path);
    if (!f || !(f << j.dump(2) << '\n')) throw UsageError("cannot write '" + core.json_path + "'");
  }
  bool all_pass = true;
  for (const Point& p : points) all_pass = all_pass && (!p.check.checked || p.check.pass);
  out << "\n" << (all_pass ? "PASS" : "FAIL") << ": " << points.size() << " sweep points "
      << (core.verify ? "checked against the FP64 reference" : "NOT verified (--no-verify)") << "\n";
  return all_pass ? kExitSuccess : kExitVerificationFailed;
}

}  // namespace gpgpu::blas
