#include "gpgpu/blas/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

#include "gpgpu/blas/fp8.hpp"
#include "gpgpu/blas/report.hpp"
#include "gpgpu/blas/work.hpp"
#include "gpgpu/matrix/report.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/operation_timing.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {
namespace {

// Host memory of a run, in bytes: A, B and one C in the run's type, for --dump one C per variant
// (counted as two), and the reference: A and B widened to double, C and |A||B| in double.
double host_bytes(const Dims& d, ElementType t) {
  const double s = matrix::type_bytes(t), ab = static_cast<double>(d.m * d.k + d.k * d.n), c = static_cast<double>(d.m * d.n);
  return ab * (s + 8) + c * (3 * s + 16);
}
// What each FP8 reference adds (reference_for keeps one per scaling, per tensor and per block):
// A and B dequantised to float and widened to double, and C, |A||B|, the partial sums Q and the
// running sum that makes Q, in double.
double fp8_reference_bytes(const Dims& d) {
  const double ab = static_cast<double>(d.m * d.k + d.k * d.n), c = static_cast<double>(d.m * d.n);
  return ab * (4 + 8) + c * 32;
}

const Peak kNoPeak{"none measured", std::nan("")};

}  // namespace

GemmProblem::GemmProblem(Settings) {}

void GemmProblem::add_options(Cli& cli) {
  blas::add_options(cli, options_);
  add_sweep_option(cli, "Matrix multiply", sweep_,
                   "run paper 003's sizes instead of one: 'paper' (n = 16, 32, ..., 4096, Tabs. 4-7) or 'wide' (also "
                   "8192); with --quick up to 256",
                   {"--n", "--m", "--k", "--dump", "--tune"});
}

void GemmProblem::parsed(Experiment& run) {
  quick_ = run.options().quick;
  const Dims largest = size().dims;
  require_host_memory(host_bytes(largest, options_.type), "matrices of " + largest.str());
}

std::string GemmProblem::describe() const {
  const std::string what = sweep_.empty() ? "m x n x k = " + options_.dims.str() : "n x n x n of paper 003 (--sweep " + sweep_ + ")";
  return std::string(matrix::type_name(options_.type)) + " C = A·B, " + what + ", " + std::to_string(options_.calls) +
         " call(s) per timed run";
}

GemmSize GemmProblem::size() const {
  return {sweep_.empty() ? options_.dims : sweep_dims(sweep_, quick_).back(), options_.type};
}

std::vector<const GemmVariant*> GemmProblem::select(const Experiment& run, std::vector<const GemmVariant*> chosen) {
  if (run.options().verify) {  // the FP8 rows' references, once the rows are known
    const GemmSize largest = size();
    int references = 0;  // one per FP8 scaling among the rows (reference_for makes each once)
    for (const bool blocks : {false, true})
      references += std::ranges::any_of(chosen, [&](const GemmVariant* v) {
        const Arithmetic a = v->arithmetic(largest.type);
        return judged_on_dequantised_inputs(a) && block_scaled(a) == blocks;
      });
    if (references > 0)
      require_host_memory(host_bytes(largest.dims, largest.type) + references * fp8_reference_bytes(largest.dims),
                          "matrices of " + largest.dims.str() + " with the FP8 rows' references");
  }
  chosen_ = chosen;
  for (const GemmVariant* v : chosen) variants_[v->info.name] = v;
  return chosen;
}

void GemmProblem::measure_limits(Experiment& run, std::ostream& out, const std::vector<const GemmVariant*>& variants) {
  for (const GemmVariant* v : variants) {  // each backend's FMA peak, once, where its variants say how
    const Backend b = v->info.backend;
    if (v->peak == nullptr || peaks_.contains(b) || run.session(b) == nullptr) continue;
    peaks_[b] = v->peak(options_.type, *run.session(b));
    out << "Limit:    " << backend_name(b) << ", " << peaks_[b].name << ": " << fmt("%.0f", peaks_[b].gflops)
        << " GFLOP/s (FMA peak, measured now)\n";
  }
}

double GemmProblem::peak_share(const GemmVariant& v, double gflops) const {
  const auto it = peaks_.find(v.info.backend);
  return v.tensor_cores(options_.type) ? std::nan("") : gflops / (it == peaks_.end() ? kNoPeak : it->second).gflops;
}

void GemmProblem::settle_peaks(std::ostream& out, const std::vector<PeakRun>& runs) {
  for (auto& [b, peak] : peaks_) settle_peak(out, b, peak, runs);
}

void GemmProblem::prepare(Experiment& run, std::ostream& out, const std::vector<const GemmVariant*>&) {
  operands_ = random_operands(options_.dims, options_.type, 1);
  for (std::optional<Reference>& r : dequantised_reference_) r.reset();
  Stopwatch clock;
  reference_ = run.options().verify ? reference(operands_) : Reference{};
  if (run.options().verify)
    out << "Reference: FP64 (" << reference_.method << "), " << fmt("%.3f", clock.seconds())
        << " s; every variant must satisfy |C - Ĉ| <= γ_k |A||B| element by element, γ_k = k u / (1 - k u)\n";
  else
    out << "Reference: skipped (--no-verify): results are NOT checked\n";
}

const Reference& GemmProblem::reference_for(Arithmetic arithmetic, std::ostream& out) {
  if (!judged_on_dequantised_inputs(arithmetic)) return reference_;
  std::optional<Reference>& made = dequantised_reference_[block_scaled(arithmetic) ? 1 : 0];
  if (!made) {
    Stopwatch clock;
    made = fp8_reference(dequantised_inputs(arithmetic, operands_), arithmetic);
    out << "Reference: FP64 of A and B dequantised from E4M3 with "
        << (block_scaled(arithmetic) ? "a scale per 1 x 128 block of A and 128 x 128 block of B (the block-scaled FP8 rows' inputs), "
                                     : "one scale per tensor (the FP8 rows' inputs), ")
        << "with the accumulator's partial sums (" << made->method << "), " << fmt("%.3f", clock.seconds())
        << " s; each element within its own bound (gemm.cpp)\n";
  }
  return *made;
}

ResultRow GemmProblem::measure(Experiment& run, std::ostream& out, const GemmVariant& v) {
  const CoreOptions& core = run.options();
  const std::unique_ptr<GemmOperation> op = v.make({options_.dims, options_.type}, run.session_of(v.info));
  // --tune after the first call, so that it stays the first call of the default configuration.
  std::vector<TuneTrial> trials;
  std::size_t tuned = 0;
  OperationTimes<HostMatrix> t = time_operation(*op, operands_, core, options_.calls, [&] {
    if (options_.tune && op->configurations().size() > 1) trials = tune(run, *op, v, tuned);
  });
  ResultRow row = run.row_for(v.info);
  row.samples = std::move(t.samples);
  row.launch = op->launch();
  row.work = gemm_work(options_.dims, options_.type, options_.calls);
  row.limit.name = "no bandwidth limit (a GEMM is judged by its FLOP rate: % FMA peak, % library)";
  row.limit.gbs = std::nan("");
  row.check = core.verify ? compare(t.result, reference_for(v.arithmetic(options_.type), out), v.arithmetic(options_.type))
                          : not_verified();
  if (!trials.empty()) record_tuning(out, v, trials, tuned, row);
  row.extra["arithmetic"] = std::string(arithmetic_name(v.arithmetic(options_.type)));
  row.extra["library"] = v.library;
  row.extra["tensor_cores"] = v.tensor_cores(options_.type);
  row.extra["ms_with_copies"] = 1e3 * median(t.with_copies_s);  // the paper's kind of time
  row.extra["ms_first_call"] = 1e3 * t.first_call_s;
  row.extra["error_over_bound"] = json_number(row.check.checked ? row.check.rel_max / row.check.tolerance : std::nan(""));
  if (!sweep_.empty()) row.extra["n"] = options_.dims.n;
  if (!core.dump_dir.empty()) results_.push_back({v.info.name, v.arithmetic(options_.type), std::move(t.result)});
  return row;
}

Report GemmProblem::report(Experiment& run, std::ostream& out) {
  // The compute roof as a limit: a verified row on FMA units that beat it sets it (peak.hpp).
  std::vector<PeakRun> runs;
  for (const ResultRow& r : run.rows())
    if (!r.extra.value("tensor_cores", false)) runs.push_back(peak_run(r));
  settle_peaks(out, runs);
  run.amend_rows([&](ResultRow& row) {
    const GemmVariant& v = *variants_.at(row.variant);
    const auto peak = peaks_.find(v.info.backend);
    row.extra["peak_gflops"] = json_number(peak == peaks_.end() ? kNoPeak.gflops : peak->second.gflops);
    row.extra["peak_share"] = json_number(peak_share(v, row.rates().gflops));
  });
  if (DumpFolder* dump = run.dump()) {
    matrix::write_npy(*dump, "a.npy", operands_.a);
    matrix::write_npy(*dump, "b.npy", operands_.b);
    // Which arithmetic each result is judged by (FP32, FP64, TF32, BF16), so that the NumPy check
    // applies the bound of the variant's own input format instead of guessing it from the name.
    nlohmann::json arithmetic = nlohmann::json::object();
    for (const DumpedResult& r : results_) {
      const std::string file = "result_" + r.variant + ".npy";
      matrix::write_npy(*dump, file, r.c);
      arithmetic[file] = std::string(arithmetic_name(r.arithmetic));
    }
    dump->write_text("arithmetic.json", arithmetic.dump(2) + "\n");
  }
  run.add_json("problem", {{"m", options_.dims.m},
                           {"n", options_.dims.n},
                           {"k", options_.dims.k},
                           {"type", matrix::type_name(options_.type)},
                           {"calls", options_.calls},
                           {"reference", reference_.method}});
  const std::vector<ResultRow>& rows = run.rows();
  nlohmann::json shares = nlohmann::json::object();
  for (const ResultRow& r : rows) shares[r.variant] = json_number(library_share(r, rows));
  run.add_json("library_share", shares);
  std::vector<Column> columns{extra_column("% FMA peak", "peak_share", "%.1f%%"),
                              {"% library", [all = &rows](const ResultRow& r) { return fmt("%.1f%%", 100 * library_share(r, *all)); }},
                              extra_column("err/bound", "error_over_bound", "%.2g"),
                              extra_column("ms w/ copies", "ms_with_copies", "%.3f")};
  run.add_json("startup", matrix::print_startup(out, run));
  const std::vector<matrix::PortRatio> ratios = port_ratios(options_.dims, options_.type, variants_, rows);
  matrix::print_port_ratios(out, ratios);
  run.add_json("port_ratios", ratios);
  out << "\n  % FMA peak: GFLOP/s over the FMA kernel's, measured in this run on the same device in the same type;\n"
         "  '-' on tensor cores (TF32, BF16, and cuBLAS DGEMM's FP64 MMA), which that kernel does not bound;\n"
         "  % library: over the vendor library's of the same arithmetic in this run (strict FP32, FP64, or TF32\n"
         "  and BF16 for those rows; cuBLAS for CUDA and OpenCL, OpenBLAS for the CPU); err/bound: the worst\n"
         "  |C - Ĉ| / (γ_k |A||B|) over all elements, for FP8 rows the worst |C - Ĉ| over its element's own\n"
         "  bound (which also grows with the accumulator's partial sums, gemm.cpp); must be <= 1.\n";
  return {columns, then_now(options_.dims, options_.type, rows)};
}

}  // namespace gpgpu::blas
