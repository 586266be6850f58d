#include "gpgpu/blas/routine_chapter.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <utility>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {
namespace {

}  // namespace

RoutineProblem::RoutineProblem(Settings) {}

void RoutineProblem::add_options(Cli& cli) {
  add_routine_options(cli, options_);
  cli.on_parsed([this](const Cli& c) { routine_given_ = c.given("--routine"); });
}

void RoutineProblem::parsed(Experiment&) {}

std::vector<const RoutineVariant*> RoutineProblem::select(const Experiment& run, std::vector<const RoutineVariant*> chosen) {
  const std::vector<std::string>& named = run.options().named;
  if (!named.empty() && !routine_given_) {  // --variant alone: the routines of the variants it names
    options_.routines.clear();
    for (Routine r : kRoutines)
      if (std::any_of(chosen.begin(), chosen.end(), [r](const RoutineVariant* v) { return v->routine == r; }))
        options_.routines.push_back(r);
  }
  double largest = 0;
  for (Routine r : options_.routines) largest = std::max(largest, host_bytes(r, options_.sizes));
  require_host_memory(largest, "the largest routine's operands and reference");
  std::vector<const RoutineVariant*> grouped;  // routine by routine, in --routine's order
  for (Routine r : options_.routines)
    for (const RoutineVariant* v : chosen)
      if (v->routine == r) grouped.push_back(v);
  for (const RoutineVariant* v : chosen)
    if (std::find(grouped.begin(), grouped.end(), v) == grouped.end() &&
        std::find(named.begin(), named.end(), v->info.name) != named.end())
      throw UsageError("--variant " + v->info.name + " computes " + std::string(routine_name(v->routine)) +
                       ", which --routine leaves out");
  return grouped;
}

std::string RoutineProblem::describe() const {
  std::string problem = "float";
  for (Routine r : options_.routines) problem += std::string(", ") + std::string(routine_name(r)) + " " + case_shape(r, options_.sizes).size_str();
  return problem + "; " + std::to_string(options_.calls) + " call(s) per timed run";
}

void RoutineProblem::measure_limits(Experiment& run, std::ostream& out, const std::vector<const RoutineVariant*>& variants) {
  // The bandwidth ceiling streams as many bytes as the largest bandwidth-bound routine of the run.
  double bytes = 0;
  for (Routine r : options_.routines)
    if (r != Routine::sgemm) bytes = std::max(bytes, routine_work(case_shape(r, options_.sizes), 1).bytes_min);
  if (bytes == 0) bytes = routine_work(case_shape(Routine::saxpy, options_.sizes), 1).bytes_min;
  for (const RoutineVariant* v : variants) {
    const Backend b = v->info.backend;
    if (ceilings_.contains(b)) continue;
    Session& s = run.session_of(v->info);
    Ceilings& c = ceilings_[b];
    c.device = s.device();
    if (v->peak != nullptr) c.peak = v->peak(ElementType::f32, s);
    StreamMix mix;
    mix.elements = static_cast<std::size_t>(std::max(1.0, bytes / 8));
    mix.threads = b == Backend::cpu ? cpu_threads(s) : 0;
    c.bandwidth = run.limit(b, mix);
    out << "Ceilings: " << backend_name(b) << ": FMA peak " << fmt("%.1f", c.peak.gflops) << " GFLOP/s ("
        << (c.peak.name.empty() ? "none registered" : c.peak.name) << "), bandwidth " << fmt("%.1f", c.bandwidth.gbs)
        << " GB/s (" << c.bandwidth.name << ", " << c.bandwidth.working_set << "), ridge " << fmt("%.1f", c.ridge())
        << " FLOP/B\n";
  }
}

void RoutineProblem::prepare(Experiment&, std::ostream&, const std::vector<const RoutineVariant*>&) { prepared_.reset(); }

void RoutineProblem::prepare_routine(Experiment& run, std::ostream& out, Routine routine) {
  case_ = Case{};  // the previous routine's operands and reference go before this one's are made
  expected_ = Expected{};
  case_ = make_case(routine, options_.sizes, 1);
  prepared_ = routine;
  const CoreOptions& core = run.options();
  Stopwatch clock;
  if (core.verify) expected_ = reference(case_);
  out << "\n" << routine_name(routine) << ", " << case_.size_str() << ": ";
  if (core.verify)
    out << "reference " << expected_.method << " (FP64), " << fmt("%.3f", clock.seconds()) << " s; bound |ŷ - y| <= "
        << expected_.bound << ", γ = " << fmt("%.3g", expected_.gamma) << "\n";
  else
    out << "reference skipped (--no-verify): results are NOT checked\n";
  if (DumpFolder* dump = run.dump()) dump_case(*dump, case_);
}

ResultRow RoutineProblem::measure(Experiment& run, std::ostream& out, const RoutineVariant& v) {
  if (prepared_ != v.routine) prepare_routine(run, out, v.routine);
  const Case& c = case_;
  Session& session = run.session_of(v.info);
  const CoreOptions& core = run.options();
  const std::unique_ptr<RoutineOperation> op = v.make(c, session);
  op->upload(c);
  Stopwatch first;  // lazy module loading, a library's heuristics: not in the timed runs
  (void)op->run(1);
  const double first_s = first.seconds();
  const std::vector<float> result = op->download();
  ResultRow row = run.row_for(v.info);
  row.check = core.verify ? compare(result, expected_) : not_verified();
  row.samples = repeat_runs(core.warmup, core.repeat, [&] { return op->run(options_.calls); });
  // The paper's "GPU w. TX": the operands up, one call, the result down, on the host's clock, from
  // pageable memory (the case's vectors) and from page-locked copies.
  const auto copies = [&](bool pinned) {
    std::vector<double> t;
    for (int i = 0; i < core.repeat; ++i)
      if (const std::optional<double> s = op->with_copies(c, pinned)) t.push_back(*s);
    return t;
  };
  const std::vector<double> with_copies = copies(false), with_pinned = copies(true);
  // The copies overlapped with the calls in chunks on streams; its result is checked too.
  std::vector<double> with_overlap;
  for (int i = 0; i < core.repeat; ++i)
    if (const std::optional<double> s = op->overlapped(c)) with_overlap.push_back(*s);
  if (core.verify && !with_overlap.empty()) {
    const Verification parts[] = {row.check, compare(op->copied_result(), expected_)};
    row.check = all_of(parts);
  }
  row.launch = op->launch();
  row.work = v.work ? v.work(c, options_.calls) : routine_work(c, options_.calls);
  // SGEMM too: its matched limit (2:1 over its 12 n² bytes) is the slanted roof of its point, far
  // below its place on the flat one; its small share of it says it is compute-bound.
  const int threads = v.info.backend == Backend::cpu ? (v.info.threads > 0 ? v.info.threads : cpu_threads(session)) : 0;
  row.limit = run.limit(v.info.backend, stream_mix(c, threads));
  const Work one = v.work ? v.work(c, 1) : routine_work(c, 1);
  if (v.work) row.extra["flops_as_done"] = one.kernel;  // not the routine's FLOPs: the roofline and Table 1 say so
  row.extra["routine"] = std::string(routine_name(c.routine));
  row.extra["size"] = c.size_str();
  row.extra["library"] = v.library;
  row.extra["intensity"] = one.flops / one.bytes_min;
  row.extra["outputs"] = static_cast<double>(c.output_size());
  row.extra["inputs"] = input_elements(c);
  row.extra["ms_first_call"] = 1e3 * first_s;
  add_copy_rates(row, c, one, row.seconds() / options_.calls, with_copies, with_pinned, with_overlap);
  row.extra["error_over_bound"] = json_number(row.check.checked ? row.check.rel_max / row.check.tolerance : std::nan(""));
  if (DumpFolder* dump = run.dump())
    dump->write(std::string(routine_name(c.routine)) + "_result_" + v.info.name + ".npy", std::span<const float>(result),
                c.output_shape());
  return row;
}

Report RoutineProblem::report(Experiment& run, std::ostream& out) {
  // The compute roof as a limit (peak.hpp): a verified routine that beat the FMA kernel sets it.
  std::vector<PeakRun> runs;
  for (const ResultRow& r : run.rows()) runs.push_back(peak_run(r));
  for (auto& [b, c] : ceilings_) settle_peak(out, b, c.peak, runs);
  run.amend_rows([&](ResultRow& row) {
    for (const auto& [b, c] : ceilings_)
      if (row.backend == backend_name(b)) {
        row.extra["peak_gflops"] = json_number(c.peak.gflops);
        row.extra["peak_share"] = json_number(row.rates().gflops / c.peak.gflops);
      }
  });
  const std::vector<ResultRow>& rows = run.rows();
  // The columns are printed after report() returns: they hold the run's rows, not this frame's.
  const auto library_share = [all = &rows](const ResultRow& row) {
    for (const ResultRow& r : *all)
      if (r.extra.value("library", false) && r.backend == row.backend && r.extra["routine"] == row.extra["routine"])
        return row.rates().gflops / r.rates().gflops;
    return std::nan("");
  };
  const std::vector<Column> columns{extra_column("FLOP/B", "intensity", "%.3g"),
                                    extra_column("% FMA peak", "peak_share", "%.1f%%"),
                                    {"% library", [=](const ResultRow& r) { return fmt("%.1f%%", 100 * library_share(r)); }},
                                    extra_column("ms w/ copies", "ms_with_copies", "%.3f"),
                                    extra_column("ms w/ pinned", "ms_with_pinned", "%.3f"),
                                    extra_column("ms overlapped", "ms_with_overlapped", "%.3f"),
                                    extra_column("bus GB/s pinned", "bus_gbs_with_pinned", "%.1f"),
                                    extra_column("err/bound", "error_over_bound", "%.2g")};
  nlohmann::json shares = nlohmann::json::object();
  for (const ResultRow& r : rows) shares[r.variant] = json_number(library_share(r));
  run.add_json("library_share", shares);
  const RoutineSizes& s = options_.sizes;
  nlohmann::json routines = nlohmann::json::array();
  for (Routine r : options_.routines) routines.push_back(std::string(routine_name(r)));
  run.add_json("problem", {{"routines", routines}, {"vector", s.vector}, {"gemv_rows", s.gemv_m},
                           {"gemv_cols", s.gemv_n}, {"gemm", s.gemm}, {"image_rows", s.image.rows},
                           {"image_cols", s.image.cols}, {"k", s.image.k}, {"calls", options_.calls}});
  print_roofline(out, ceilings_, rows);
  run.add_json("roofline", roofline_json(ceilings_, rows));
  run.add_json("table1", print_table1(out, rows));
  out << "\n  FLOP/B: FLOPs over the minimum bytes (the work table in problems/blas/routines.hpp); % FMA peak: GFLOP/s\n"
         "  over the FMA kernel's in this run on the same device; % library: over OpenBLAS (CPU) or cuBLAS (CUDA) on\n"
         "  the same routine in this run; w/ copies: operands up, one call, result down, on the host's clock, from\n"
         "  pageable memory (w/ copies) or page-locked (w/ pinned); overlapped: page-locked, in chunks on streams, the\n"
         "  copies of one chunk beside the call of another (our SAXPY, SSCAL, SGEMV and convolution kernels); bus GB/s:\n"
         "  the bytes copied over the time the copies added to the kernel's;\n"
         "  err/bound: the worst |ŷ - y| / (γ s) over all elements (must be <= 1).\n";
  return {columns, machines_then_now(ceilings_)};
}

}  // namespace gpgpu::blas
