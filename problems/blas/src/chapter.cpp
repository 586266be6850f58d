#include "gpgpu/blas/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "gpgpu/blas/paper003_multiply.hpp"
#include "gpgpu/blas/report.hpp"
#include "gpgpu/blas/sweep.hpp"
#include "gpgpu/blas/work.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/matrix/report.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {
namespace {

const auto fmt = format_cell;

// Host memory of a run, in bytes: A, B and one C in the run's type, for --dump one C per variant
// (counted as two), and the reference: A and B widened to double, C and |A||B| in double.
double host_bytes(const Dims& d, ElementType t) {
  const double s = matrix::type_bytes(t), ab = static_cast<double>(d.m * d.k + d.k * d.n), c = static_cast<double>(d.m * d.n);
  return ab * (s + 8) + c * (3 * s + 16);
}

const Peak kNoPeak{"none measured", std::nan("")};

}  // namespace

Chapter::Chapter(ChapterInfo info) : experiment_(std::move(info)) {}
Chapter::~Chapter() = default;

void Chapter::add(VariantSpec spec) {
  experiment_.use(spec.opener);
  registry_.add(std::move(spec));
}

void Chapter::parse(int argc, const char* const* argv) {
  for (const VariantSpec& s : static_registry<VariantSpec>().all()) add(s);
  add_options(cli(), options_);
  cli().group("Matrix multiply")
      .add_option("--sweep", sweep_,
                  "run paper 003's sizes instead of one: 'paper' (n = 16, 32, ..., 4096, Tabs. 4-7) or 'wide' (also "
                  "8192); with --quick up to 256")
      ->check(CLI::IsMember({"paper", "wide"}))
      ->excludes(cli().app().get_option("--n"))
      ->excludes(cli().app().get_option("--m"))
      ->excludes(cli().app().get_option("--k"))
      ->excludes(cli().app().get_option("--dump"))
      ->excludes(cli().app().get_option("--tune"));
  experiment_.parse(argc, argv, registry_.names(), registry_.names_in_all());
  const Dims largest = sweep_.empty() ? options_.dims : sweep_dims(sweep_, experiment_.options().quick).back();
  require_host_memory(host_bytes(largest, options_.type), "matrices of " + largest.str());
}

const Peak& Chapter::peak_of(const VariantSpec& spec) const {
  const auto it = peaks_.find(spec.info.backend);
  return it == peaks_.end() ? kNoPeak : it->second;
}

double Chapter::peak_share(const VariantSpec& spec, double gflops) const {
  return spec.tensor_cores(options_.type) ? std::nan("") : gflops / peak_of(spec).gflops;
}

void Chapter::measure_peaks(std::ostream& out, const std::vector<const VariantSpec*>& variants) {
  for (const VariantSpec* v : variants) {
    if (peaks_.contains(v->info.backend)) continue;
    for (const PeakSpec& p : peak_registry())
      if (p.backend == v->info.backend) {
        peaks_[p.backend] = p.measure(options_.type, session_of(*v));
        out << "Limit:    " << backend_name(p.backend) << ", " << peaks_[p.backend].name << ": "
            << fmt("%.0f", peaks_[p.backend].gflops) << " GFLOP/s (FMA peak, measured now)\n";
      }
  }
}

double Chapter::make_inputs() {
  operands_ = random_operands(options_.dims, options_.type, 1);
  Stopwatch clock;
  reference_ = experiment_.options().verify ? blas::reference(operands_) : Reference{};
  return clock.seconds();
}

//! [tune]
std::vector<TuneTrial> Chapter::tune(Kernel& kernel, const VariantSpec& spec, std::size_t& fastest) {
  const CoreOptions& core = experiment_.options();
  const std::vector<std::string> names = kernel.configurations();
  std::vector<TuneTrial> trials;
  fastest = 0;
  double best = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    kernel.configure(i);
    TuneTrial trial{names[i], {}, std::nan("")};
    kernel.upload(operands_);  // C poisoned: the configuration must write every element itself
    (void)kernel.run(1);
    trial.check = compare(kernel.download(), reference_, spec.arithmetic(options_.type));
    if (trial.check.pass) {
      const std::vector<double> s = repeat_runs(core.warmup, core.repeat, [&] { return kernel.run(options_.calls); });
      trial.gflops = gemm_work(options_.dims, options_.type, options_.calls).flops / median(s) / 1e9;
      if (trial.gflops > best) {
        best = trial.gflops;
        fastest = i;
      }
    }
    trials.push_back(std::move(trial));
  }
  kernel.configure(fastest);
  return trials;
}
//! [tune]

Measurement Chapter::measure(const VariantSpec& spec) {
  std::unique_ptr<Kernel> kernel = spec.make(options_.dims, options_.type, session_of(spec));
  const CoreOptions& core = experiment_.options();
  Measurement m;
  kernel->upload(operands_);
  Stopwatch first;  // lazy module loading, a library's heuristics, an OpenCL JIT: not in the timed runs
  (void)kernel->run(1);
  m.first_call_s = first.seconds();
  // --tune after that first call, so that it stays the first call of the default configuration.
  if (options_.tune && kernel->configurations().size() > 1) m.tuning = tune(*kernel, spec, m.tuned);
  kernel->upload(operands_);  // poisoned again: the timed runs must write every element themselves
  m.samples = repeat_runs(core.warmup, core.repeat, [&] { return kernel->run(options_.calls); });
  m.result = kernel->download();
  m.launch = kernel->launch();
  m.check = core.verify ? compare(m.result, reference_, spec.arithmetic(options_.type)) : not_verified();
  m.with_copies_s = repeat_runs(0, core.repeat, [&] {
    Stopwatch clock;
    kernel->upload(operands_);
    kernel->run(1);
    (void)kernel->download();
    return clock.seconds();
  });
  return m;
}

void Chapter::record_tuning(std::ostream& out, const VariantSpec& spec, const Measurement& m, ResultRow& row) const {
  nlohmann::json trials = nlohmann::json::array();
  std::vector<Verification> checks{row.check};
  for (const TuneTrial& t : m.tuning) {
    out << "  " << std::left << std::setw(22) << spec.info.name << std::right << " tune: " << t.configuration << ": "
        << (t.check.pass ? fmt("%.0f GFLOP/s", t.gflops) + ", PASS" : "not timed, " + t.check.summary()) << "\n";
    trials.push_back({{"configuration", t.configuration},
                      {"gflops", json_number(t.gflops)},
                      {"check", t.check.pass ? "PASS" : "FAIL"},
                      {"error_over_bound", json_number(t.check.rel_max / t.check.tolerance)}});
    checks.push_back(t.check);
  }
  const std::string& chosen = m.tuning[m.tuned].configuration;
  const auto passed = std::count_if(m.tuning.begin(), m.tuning.end(), [](const TuneTrial& t) { return t.check.pass; });
  out << "  " << std::left << std::setw(22) << spec.info.name << std::right << " tuned: " << chosen << ", the fastest of the "
      << passed << " configurations that passed their check (" << m.tuning.size() << " tried)\n";
  row.extra["tuning"] = std::move(trials);
  row.extra["tuned"] = chosen;
  row.launch = "tuned: " + chosen + (row.launch.empty() ? "" : "; " + row.launch);
  row.check = all_of(checks);  // a configuration that fails its check fails the variant, chosen or not
}

const ResultRow& Chapter::run_variant(std::ostream& out, const VariantSpec& spec) {
  Measurement m = measure(spec);
  ResultRow row = experiment_.row_for(spec.info, spec.threads);
  row.timer = spec.timer;
  row.samples = std::move(m.samples);
  row.launch = m.launch;
  row.work = gemm_work(options_.dims, options_.type, options_.calls);
  row.limit.name = "no bandwidth limit (a GEMM is judged by its FLOP rate: % FMA peak, % library)";
  row.limit.gbs = std::nan("");
  row.check = m.check;
  if (!m.tuning.empty()) record_tuning(out, spec, m, row);
  row.extra["arithmetic"] = std::string(arithmetic_name(spec.arithmetic(options_.type)));
  row.extra["library"] = spec.library;
  row.extra["tensor_cores"] = spec.tensor_cores(options_.type);
  row.extra["ms_with_copies"] = 1e3 * median(m.with_copies_s);
  row.extra["ms_first_call"] = 1e3 * m.first_call_s;
  row.extra["error_over_bound"] = json_number(m.check.checked ? m.check.rel_max / m.check.tolerance : std::nan(""));
  if (!experiment_.options().dump_dir.empty()) results_.emplace_back(spec.info.name, std::move(m.result));
  if (!row.launch.empty()) out << "  " << std::left << std::setw(22) << spec.info.name << std::right << " " << row.launch << "\n";
  return experiment_.record(out, std::move(row));
}

double library_share(const ResultRow& row, const std::vector<ResultRow>& rows) {
  const auto arithmetic = [](const ResultRow& r) { return r.extra.value("arithmetic", std::string()); };
  const auto same_library = [&](const ResultRow& r) { return r.extra.value("library", false) && arithmetic(r) == arithmetic(row); };
  for (const char* backend : {row.backend.c_str(), "cuda"}) {
    if (std::string_view(backend) == "cuda" && row.backend != "cuda" && row.backend != "opencl") break;
    for (const ResultRow& r : rows)
      if (same_library(r) && r.backend == backend) return row.rates().gflops / r.rates().gflops;
  }
  return std::nan("");
}

void Chapter::settle_peaks(std::ostream& out, const std::vector<PeakRun>& runs) {
  for (auto& [b, peak] : peaks_) settle_peak(out, b, peak, runs);
}

int Chapter::finish(std::ostream& out) {
  const CoreOptions& core = experiment_.options();
  // The compute roof as a limit: a verified row on FMA units that beat it sets it (kernel.hpp).
  std::vector<PeakRun> runs;
  for (const ResultRow& r : experiment_.rows())
    if (!r.extra.value("tensor_cores", false))
      runs.push_back(peak_run(r));
  settle_peaks(out, runs);
  experiment_.amend_rows([&](ResultRow& row) {
    const VariantSpec& spec = registry_.at(row.variant);
    row.extra["peak_gflops"] = json_number(peak_of(spec).gflops);
    row.extra["peak_share"] = json_number(peak_share(spec, row.rates().gflops));
  });
  if (!core.dump_dir.empty()) {
    const std::filesystem::path dir = core.dump_dir;
    matrix::write_npy(dir / "a.npy", operands_.a);
    matrix::write_npy(dir / "b.npy", operands_.b);
    for (const auto& [name, c] : results_) matrix::write_npy(dir / ("result_" + name + ".npy"), c);
  }
  experiment_.add_json("problem", {{"m", options_.dims.m},
                                   {"n", options_.dims.n},
                                   {"k", options_.dims.k},
                                   {"type", matrix::type_name(options_.type)},
                                   {"calls", options_.calls},
                                   {"reference", reference_.method}});
  const std::vector<ResultRow>& rows = experiment_.rows();
  nlohmann::json shares = nlohmann::json::object();
  for (const ResultRow& r : rows) shares[r.variant] = json_number(library_share(r, rows));
  experiment_.add_json("library_share", shares);
  const auto number = [](const char* key, const char* format, double scale) {
    return Column{"", [=](const ResultRow& r) {
                    return r.extra.contains(key) && r.extra[key].is_number() ? fmt(format, scale * r.extra[key].get<double>())
                                                                               : std::string("-");
                  }};
  };
  std::vector<Column> columns{number("peak_share", "%.1f%%", 100),
                              {"", [&rows](const ResultRow& r) { return fmt("%.1f%%", 100 * library_share(r, rows)); }},
                              number("error_over_bound", "%.2g", 1), number("ms_with_copies", "%.3f", 1)};
  const char* headers[] = {"% FMA peak", "% library", "err/bound", "ms w/ copies"};
  for (std::size_t i = 0; i < columns.size(); ++i) columns[i].header = headers[i];
  experiment_.add_json("startup", matrix::print_startup(out, experiment_));
  const std::vector<matrix::PortRatio> ratios = port_ratios(options_.dims, options_.type, registry_, rows);
  matrix::print_port_ratios(out, ratios);
  experiment_.add_json("port_ratios", ratios);
  out << "\n  % FMA peak: GFLOP/s over the FMA kernel's, measured in this run on the same device in the same type;\n"
         "  '-' on tensor cores (TF32, and cuBLAS DGEMM's FP64 MMA), which that kernel does not bound;\n"
         "  % library: over the vendor library's of the same arithmetic in this run (strict FP32, FP64, or TF32 for\n"
         "  the TF32 rows; cuBLAS for CUDA and OpenCL, OpenBLAS for the CPU); err/bound: the worst\n"
         "  |C - Ĉ| / (γ_k |A||B|) over all elements (must be <= 1).\n";
  return experiment_.finish(out, columns, then_now(options_.dims, options_.type, rows));
}

int Chapter::run(int argc, char** argv) {
  parse(argc, argv);
  std::ostream& out = std::cout;
  experiment_.print_header(out, std::string(matrix::type_name(options_.type)) + " C = A·B, m x n x k = " +
                                    options_.dims.str() + ", " + std::to_string(options_.calls) + " call(s) per timed run");
  const std::vector<const VariantSpec*> variants =
      experiment_.open_variants(out, registry_, [&](const VariantSpec& v, Session& s) -> std::optional<std::string> {
        return v.limitation ? v.limitation(options_.dims, options_.type, s) : std::nullopt;
      });
  const Dims largest = sweep_.empty() ? options_.dims : sweep_dims(sweep_, experiment_.options().quick).back();
  for (const VariantSpec* v : variants)
    if (v->check_fits) v->check_fits(largest, options_.type, session_of(*v));
  measure_peaks(out, variants);
  if (!sweep_.empty()) return run_sweep(*this, out, variants);
  const double seconds = make_inputs();
  if (experiment_.options().verify)
    out << "Reference: FP64 (" << reference_.method << "), " << fmt("%.3f", seconds)
        << " s; every variant must satisfy |C - Ĉ| <= γ_k |A||B| element by element, γ_k = k u / (1 - k u)\n";
  else
    out << "Reference: skipped (--no-verify): results are NOT checked\n";
  out << "Verification:\n";
  for (const VariantSpec* v : variants) run_variant(out, *v);
  return finish(out);
}

}  // namespace gpgpu::blas
