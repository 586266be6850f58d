// Paper 003's sizes in one run (Tabs. 4-7: n x n x n for n = 16 ... 4096), and 8192: every chosen
// variant verified and timed at every n like a row of the result table. The loop over sizes and
// variants is the core's (gpgpu::Chapter::sweep); here are the sizes and the report: GFLOP/s, % of
// the vendor library at that n, % of the FMA peak, the paper's time; then each port over its
// original against n beside the paper's ratios (OpenCL 24x slower than CUDA at n = 16 on the
// GT 240, 1.1x at 2048, Tab. 6).
#include <cmath>
#include <ostream>

#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/blas/paper003_multiply.hpp"
#include "gpgpu/blas/report.hpp"
#include "gpgpu/points.hpp"
#include "gpgpu/matrix/report.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu::blas {
namespace {

std::int64_t n_of(const ResultRow& point) { return point.extra.at("n").get<std::int64_t>(); }

// The paper's time at n for the variant's namesake (copies included), NaN where it has none.
double paper_ms(const ResultRow& point, ElementType type) {
  const std::int64_t n = n_of(point);
  const int index = n <= 4096 ? paper003::size_index(static_cast<int>(n)) : -1;
  const paper003::TimeRow* row = paper003::multiply_row(type == ElementType::f64 ? "Tab. 5" : "Tab. 4", point.paper_name);
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

std::vector<GemmSize> GemmProblem::sweep_sizes(const CoreOptions& core) const {
  std::vector<GemmSize> sizes;
  if (!sweep_.empty())
    for (const Dims& d : sweep_dims(sweep_, core.quick)) sizes.push_back({d, options_.type});
  return sizes;
}

void GemmProblem::begin_sweep(Experiment& run, std::ostream& out) {
  measure_limits(run, out, chosen_);  // the FMA peaks of the backends that opened
  const std::vector<Dims> sizes = sweep_dims(sweep_, run.options().quick);
  out << "Sweep (paper 003, Tabs. 4-7): n x n x n for n = " << sizes.front().n << " ... " << sizes.back().n << ", "
      << matrix::type_name(options_.type) << ", median of " << run.options().repeat
      << "; every point checked against γ_k |A||B|\n";
}

int GemmProblem::end_sweep(Experiment& run, std::ostream& out, std::vector<ResultRow>& points) {
  // % of the library of the same arithmetic at each n, and the ports over their originals at that
  // n (the points of one n come one after the other).
  std::vector<double> library(points.size(), std::nan(""));
  std::vector<matrix::PortRatio> ratios;
  for (std::size_t first = 0, last = 0; first < points.size(); first = last) {
    while (last < points.size() && n_of(points[last]) == n_of(points[first])) ++last;
    const std::vector<ResultRow> at_n(points.begin() + static_cast<std::ptrdiff_t>(first),
                                      points.begin() + static_cast<std::ptrdiff_t>(last));
    for (std::size_t i = first; i < last; ++i) library[i] = library_share(points[i], at_n);
    const std::int64_t n = n_of(points[first]);
    for (matrix::PortRatio& r : port_ratios({n, n, n}, options_.type, variants_, at_n)) ratios.push_back(std::move(r));
  }
  // The compute roof as a limit (peak.hpp: settle_peak): a verified point on FMA units that beat it sets it.
  std::vector<PeakRun> runs;
  for (const ResultRow& p : points)
    if (!p.extra.value("tensor_cores", false)) {
      runs.push_back(peak_run(p));
      runs.back().variant += " at n = " + std::to_string(n_of(p));
    }
  settle_peaks(out, runs);
  for (std::size_t i = 0; i < points.size(); ++i) {
    ResultRow& p = points[i];
    p.extra["library_share"] = point_number(library[i]);
    p.extra["peak_share"] = point_number(peak_share(*variants_.at(p.variant), p.rates().gflops));
  }
  const auto number = [](auto f) { return [f](const ResultRow& p) { return point_number(f(p)); }; };
  const auto text = [](auto f) { return [f](const ResultRow& p) -> nlohmann::json { return f(p); }; };
  const auto extra = [](const char* key) { return [key](const ResultRow& p) { return p.extra.at(key); }; };
  const std::string type(matrix::type_name(options_.type));
  const std::vector<PointField> fields{
      {"n", "n", "", text(n_of)},
      {"type", "", "", text([&](const ResultRow&) { return type; })},
      {"variant", "variant", "", text([](const ResultRow& p) { return p.variant; })},
      {"backend", "", "", text([](const ResultRow& p) { return p.backend; })},
      {"ms_kernel", "ms kernel", "%.4f", number([](const ResultRow& p) { return p.ms_per_step(); })},
      {"ms_with_copies", "ms w/ copies", "%.4f", extra("ms_with_copies")},
      {"gflops", "GFLOP/s", "%.1f", number([](const ResultRow& p) { return p.rates().gflops; })},
      {"library_share", "% library", "%.1f%%", extra("library_share")},
      {"peak_share", "% FMA peak", "%.1f%%", extra("peak_share")},
      {"check", "check", "", text([](const ResultRow& p) { return p.check.verdict(); })},
      {"error_over_bound", "", "", number([](const ResultRow& p) { return p.check.rel_max / p.check.tolerance; })},
      {"paper_ms", "then ms", "%.4f", number([this](const ResultRow& p) { return paper_ms(p, options_.type); })}};
  out << "\nSweep results:\n";
  print_points(out, points, fields);
  out << "  then ms: the paper's time at n for the variant's namesake ("
      << (options_.type == ElementType::f64 ? "Tab. 5, Tesla C1060" : "Tab. 4, GeForce 8800GT") << "), copies included.\n";
  matrix::print_port_ratios(out, ratios);
  nlohmann::json j = run.json_header("gemm-sweep");
  j["chapter"]["mode"] = sweep_;
  j["problem"] = {{"type", type}, {"calls", options_.calls}, {"repeat", run.options().repeat}};
  j["port_ratios"] = ratios;
  j["startup"] = matrix::print_startup(out, run);
  write_points(run.options(), points, fields, std::move(j));
  const int code = print_verdict(out, points, "sweep points", run.options().verify);
  out << "\n";
  return code;
}

}  // namespace gpgpu::blas
