#include "gpgpu/blas/routine_chapter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <utility>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/npy.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {
namespace {

const auto fmt = format_cell;

// Elements a routine reads (its inputs), for the reuse column of Table 1.
double input_elements(const Case& c) {
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  switch (c.routine) {
    case Routine::saxpy: return 2 * d(c.n);
    case Routine::sscal: return d(c.n);
    case Routine::sgemv: return d(c.m * c.n + c.n);
    case Routine::sgemv_t: return d(c.m * c.n + c.m);
    case Routine::sgemm: return d(c.m * c.k + c.k * c.n);
    case Routine::conv2d: return d(c.m * c.n + c.k * c.k);
  }
  return 0;
}

// The paper's machines (Tables 2, 3): peak GFLOP/s, memory GB/s, bus GB/s.
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

// Bytes with_copies() moves over the bus: every input array up, the result down.
double transfer_bytes(const Case& c) {
  const double in = static_cast<double>(c.a.size() + c.b.size() + c.x.size() + c.y.size() + c.factors.size());
  return 4 * (in + static_cast<double>(c.output_size()));
}

}  // namespace

RoutineChapter::RoutineChapter(ChapterInfo info) : experiment_(std::move(info)) {}
RoutineChapter::~RoutineChapter() = default;

void RoutineChapter::add(RoutineVariant v) {
  experiment_.use(v.opener);
  registry_.add(std::move(v));
}

void RoutineChapter::parse(int argc, const char* const* argv) {
  for (const RoutineVariant& v : static_registry<RoutineVariant>().all()) add(v);
  add_routine_options(cli(), options_);
  experiment_.parse(argc, argv, registry_.names(), registry_.names_in_all());
  if (cli().given("--variant") && !cli().given("--routine")) {  // --variant alone: the routines of the variants it names
    options_.routines.clear();
    for (Routine r : kRoutines)
      for (const std::string& name : experiment_.options().variants)
        if (registry_.at(name).routine == r) {
          options_.routines.push_back(r);
          break;
        }
  }
  double largest = 0;
  for (Routine r : options_.routines) largest = std::max(largest, host_bytes(r, options_.sizes));
  require_host_memory(largest, "the largest routine's operands and reference");
}

std::vector<const RoutineVariant*> RoutineChapter::open(std::ostream& out) {
  const bool named = cli().given("--variant");
  std::vector<const RoutineVariant*> chosen;
  std::vector<Backend> backends;
  for (const std::string& name : experiment_.options().variants) {
    const RoutineVariant& v = registry_.at(name);
    if (std::find(options_.routines.begin(), options_.routines.end(), v.routine) == options_.routines.end()) {
      if (named && cli().given("--routine"))
        throw UsageError("--variant " + name + " computes " + std::string(routine_name(v.routine)) + ", which --routine leaves out");
      if (!named) continue;
    }
    chosen.push_back(&v);
    if (std::find(backends.begin(), backends.end(), v.info.backend) == backends.end()) backends.push_back(v.info.backend);
  }
  experiment_.open(out, backends);
  std::vector<const RoutineVariant*> runnable;
  for (const RoutineVariant* v : chosen) {
    Session* s = experiment_.session(v->info.backend);
    if (s == nullptr) {
      experiment_.skip(out, v->info.name, std::string(backend_name(v->info.backend)) + " missing: " + experiment_.absent_reason(v->info.backend));
      continue;
    }
    if (v->limitation) {
      if (const std::optional<std::string> why = v->limitation(case_shape(v->routine, options_.sizes), *s)) {
        if (named) throw UsageError("--variant " + v->info.name + ": " + *why);
        experiment_.skip(out, v->info.name, *why);
        continue;
      }
    }
    runnable.push_back(v);
  }
  return runnable;
}

void RoutineChapter::measure_ceilings(std::ostream& out, const std::vector<const RoutineVariant*>& variants) {
  // The bandwidth ceiling streams as many bytes as the largest bandwidth-bound routine of the run.
  double bytes = 0;
  for (Routine r : options_.routines)
    if (r != Routine::sgemm) bytes = std::max(bytes, routine_work(case_shape(r, options_.sizes), 1).bytes_min);
  if (bytes == 0) bytes = routine_work(case_shape(Routine::saxpy, options_.sizes), 1).bytes_min;
  for (const RoutineVariant* v : variants) {
    const Backend b = v->info.backend;
    if (ceilings_.contains(b)) continue;
    Session& s = session_of(*v);
    Ceilings& c = ceilings_[b];
    const int threads = b == Backend::cpu ? cpu_threads(s) : 0;
    c.device = s.device();
    for (const PeakSpec& p : peak_registry())
      if (p.backend == b) {
        c.peak = p.measure(ElementType::f32, s);
      }
    StreamMix mix;
    mix.elements = static_cast<std::size_t>(std::max(1.0, bytes / 8));
    mix.threads = threads;
    c.bandwidth = experiment_.limit(b, mix);
    out << "Ceilings: " << backend_name(b) << ": FMA peak " << fmt("%.1f", c.peak.gflops) << " GFLOP/s ("
        << (c.peak.name.empty() ? "none registered" : c.peak.name) << "), bandwidth " << fmt("%.1f", c.bandwidth.gbs)
        << " GB/s (" << c.bandwidth.name << ", " << c.bandwidth.working_set << "), ridge " << fmt("%.1f", c.ridge())
        << " FLOP/B\n";
  }
}

void RoutineChapter::run_variant(std::ostream& out, const RoutineVariant& v, const Case& c, const Expected& expected) {
  Session& session = session_of(v);
  const CoreOptions& core = experiment_.options();
  const std::unique_ptr<RoutineKernel> kernel = v.make(c, session);
  kernel->upload(c);
  Stopwatch first;  // lazy module loading, a library's heuristics: not in the timed runs
  (void)kernel->run(1);
  const double first_s = first.seconds();
  const std::vector<float> result = kernel->download();
  const int threads = v.threads > 0 ? v.threads : (v.info.backend == Backend::cpu ? cpu_threads(session) : 0);
  ResultRow row = experiment_.row_for(v.info, threads);
  row.check = core.verify ? compare(result, expected) : not_verified();
  row.samples = repeat_runs(core.warmup, core.repeat, [&] { return kernel->run(options_.calls); });
  // The paper's "GPU w. TX": the operands up, one call, the result down, on the host's clock, from
  // pageable memory (the case's vectors) and from page-locked copies.
  const auto copies = [&](bool pinned) {
    std::vector<double> t;
    for (int i = 0; i < core.repeat; ++i)
      if (const std::optional<double> s = kernel->with_copies(c, pinned)) t.push_back(*s);
    return t;
  };
  const std::vector<double> with_copies = copies(false), with_pinned = copies(true);
  // The copies overlapped with the calls in chunks on streams; its result is checked too.
  std::vector<double> with_overlap;
  for (int i = 0; i < core.repeat; ++i)
    if (const std::optional<double> s = kernel->overlapped(c)) with_overlap.push_back(*s);
  if (core.verify && !with_overlap.empty()) {
    const Verification parts[] = {row.check, compare(kernel->copied_result(), expected)};
    row.check = all_of(parts);
  }
  row.timer = v.timer;
  row.launch = kernel->launch();
  row.work = v.work ? v.work(c, options_.calls) : routine_work(c, options_.calls);
  // SGEMM too: its matched limit (2:1 over its 12 n² bytes) is the slanted roof of its point, far
  // below its place on the flat one; its small share of it says it is compute-bound.
  row.limit = experiment_.limit(v.info.backend, stream_mix(c, threads));
  const Work one = v.work ? v.work(c, 1) : routine_work(c, 1);
  if (v.work) row.extra["flops_as_done"] = one.kernel;  // not the routine's FLOPs: the roofline and Table 1 say so
  row.extra["routine"] = std::string(routine_name(c.routine));
  row.extra["size"] = c.size_str();
  row.extra["library"] = v.library;
  row.extra["intensity"] = one.flops / one.bytes_min;
  row.extra["outputs"] = static_cast<double>(c.output_size());
  row.extra["inputs"] = input_elements(c);
  row.extra["ms_first_call"] = 1e3 * first_s;
  const double kernel_s = row.seconds() / options_.calls;
  // The bus: operands and result over the copies' share of the time. One after the other, that is
  // the time less the calls'; overlapped, the calls run beside the copies, so it is the whole time,
  // a lower bound on the bus's rate (subtracting the calls read 379 GB/s at k = 17, above any bus).
  struct Timed {
    const char* key;
    const std::vector<double>* seconds;
    double calls_in_series_s;
  };
  for (const Timed& t : {Timed{"with_copies", &with_copies, kernel_s}, Timed{"with_pinned", &with_pinned, kernel_s},
                         Timed{"with_overlapped", &with_overlap, 0.0}}) {
    const std::string key = t.key;
    const double s = t.seconds->empty() ? std::nan("") : median(*t.seconds);
    row.extra["ms_" + key] = json_number(1e3 * s);
    row.extra["gflops_" + key] = json_number(one.flops / s / 1e9);
    const double copies_s = s - t.calls_in_series_s;
    row.extra["bus_gbs_" + key] = json_number(transfer_bytes(c) / copies_s / 1e9);
  }
  row.extra["error_over_bound"] = json_number(row.check.checked ? row.check.rel_max / row.check.tolerance : std::nan(""));
  if (!core.dump_dir.empty())
    write_npy(std::filesystem::path(core.dump_dir) / (std::string(routine_name(c.routine)) + "_result_" + v.info.name + ".npy"),
              std::span<const float>(result), c.output_shape());
  if (!row.launch.empty()) out << "  " << std::left << std::setw(22) << v.info.name << std::right << " " << row.launch << "\n";
  experiment_.record(out, std::move(row));
}

void RoutineChapter::run_routine(std::ostream& out, Routine routine, const std::vector<const RoutineVariant*>& variants) {
  std::vector<const RoutineVariant*> mine;
  for (const RoutineVariant* v : variants)
    if (v->routine == routine) mine.push_back(v);
  if (mine.empty()) return;
  const Case c = make_case(routine, options_.sizes, 1);
  Stopwatch clock;
  const Expected expected = experiment_.options().verify ? reference(c) : Expected{};
  out << "\n" << routine_name(routine) << ", " << c.size_str() << ": ";
  if (experiment_.options().verify)
    out << "reference " << expected.method << " (FP64), " << fmt("%.3f", clock.seconds()) << " s; bound |ŷ - y| <= "
        << expected.bound << ", γ = " << fmt("%.3g", expected.gamma) << "\n";
  else
    out << "reference skipped (--no-verify): results are NOT checked\n";
  if (!experiment_.options().dump_dir.empty()) {
    const std::filesystem::path dir = experiment_.options().dump_dir;
    const std::string name(routine_name(routine));
    const auto shape = [](std::int64_t r, std::int64_t cols) { return std::vector<std::size_t>{static_cast<std::size_t>(r), static_cast<std::size_t>(cols)}; };
    const float alpha[] = {c.alpha};
    if (!c.x.empty()) write_npy(dir / (name + "_alpha.npy"), std::span<const float>(alpha), {1});
    if (!c.x.empty()) write_npy(dir / (name + "_x.npy"), std::span<const float>(c.x), {c.x.size()});
    if (!c.y.empty()) write_npy(dir / (name + "_y.npy"), std::span<const float>(c.y), {c.y.size()});
    if (!c.a.empty()) write_npy(dir / (name + "_a.npy"), std::span<const float>(c.a), shape(c.m, routine == Routine::sgemm ? c.k : c.n));
    if (!c.b.empty()) write_npy(dir / (name + "_b.npy"), std::span<const float>(c.b), routine == Routine::sgemm ? shape(c.k, c.n) : shape(c.k, c.k));
    if (!c.factors.empty()) write_npy(dir / (name + "_factors.npy"), std::span<const float>(c.factors), shape(2, c.k));  // u; v
  }
  for (const RoutineVariant* v : mine) run_variant(out, *v, c, expected);
}

void RoutineChapter::settle_peaks(std::ostream& out) {
  std::vector<PeakRun> runs;
  for (const ResultRow& r : experiment_.rows())
    runs.push_back(peak_run(r));
  for (auto& [b, c] : ceilings_) settle_peak(out, b, c.peak, runs);
  experiment_.amend_rows([&](ResultRow& row) {
    for (const auto& [b, c] : ceilings_)
      if (row.backend == backend_name(b)) {
        row.extra["peak_gflops"] = json_number(c.peak.gflops);
        row.extra["peak_share"] = json_number(row.rates().gflops / c.peak.gflops);
      }
  });
}

int RoutineChapter::finish(std::ostream& out) {
  settle_peaks(out);
  const std::vector<ResultRow>& rows = experiment_.rows();
  const auto library_share = [&rows](const ResultRow& row) {
    for (const ResultRow& r : rows)
      if (r.extra.value("library", false) && r.backend == row.backend && r.extra["routine"] == row.extra["routine"])
        return row.rates().gflops / r.rates().gflops;
    return std::nan("");
  };
  const auto number = [](const char* key, const char* format, double scale) {
    return [=](const ResultRow& r) {
      return r.extra.contains(key) && r.extra[key].is_number() ? fmt(format, scale * r.extra[key].get<double>()) : std::string("-");
    };
  };
  const std::vector<Column> columns{{"FLOP/B", number("intensity", "%.3g", 1)},
                                    {"% FMA peak", number("peak_share", "%.1f%%", 100)},
                                    {"% library", [&](const ResultRow& r) { return fmt("%.1f%%", 100 * library_share(r)); }},
                                    {"ms w/ copies", number("ms_with_copies", "%.3f", 1)},
                                    {"ms w/ pinned", number("ms_with_pinned", "%.3f", 1)},
                                    {"ms overlapped", number("ms_with_overlapped", "%.3f", 1)},
                                    {"bus GB/s pinned", number("bus_gbs_with_pinned", "%.1f", 1)},
                                    {"err/bound", number("error_over_bound", "%.2g", 1)}};
  nlohmann::json shares = nlohmann::json::object();
  for (const ResultRow& r : rows) shares[r.variant] = json_number(library_share(r));
  experiment_.add_json("library_share", shares);
  const RoutineSizes& s = options_.sizes;
  nlohmann::json routines = nlohmann::json::array();
  for (Routine r : options_.routines) routines.push_back(std::string(routine_name(r)));
  experiment_.add_json("problem", {{"routines", routines}, {"vector", s.vector}, {"gemv_rows", s.gemv_m},
                                   {"gemv_cols", s.gemv_n}, {"gemm", s.gemm}, {"image_rows", s.image.rows},
                                   {"image_cols", s.image.cols}, {"k", s.image.k}, {"calls", options_.calls}});
  print_roofline(out, ceilings_, rows);
  experiment_.add_json("roofline", roofline_json(ceilings_, rows));
  experiment_.add_json("table1", print_table1(out, rows));
  out << "\n  FLOP/B: FLOPs over the minimum bytes (the work table in problems/blas/routines.hpp); % FMA peak: GFLOP/s\n"
         "  over the FMA kernel's in this run on the same device; % library: over OpenBLAS (CPU) or cuBLAS (CUDA) on\n"
         "  the same routine in this run; w/ copies: operands up, one call, result down, on the host's clock, from\n"
         "  pageable memory (w/ copies) or page-locked (w/ pinned); overlapped: page-locked, in chunks on streams, the\n"
         "  copies of one chunk beside the call of another (our SAXPY, SSCAL, SGEMV and convolution kernels); bus GB/s:\n"
         "  the bytes copied over the time the copies added to the kernel's;\n"
         "  err/bound: the worst |ŷ - y| / (γ s) over all elements (must be <= 1).\n";
  return experiment_.finish(out, columns, machines_then_now(ceilings_));
}

int RoutineChapter::run(int argc, char** argv) {
  parse(argc, argv);
  std::ostream& out = std::cout;
  std::string problem = "float";
  for (Routine r : options_.routines) problem += std::string(", ") + std::string(routine_name(r)) + " " + case_shape(r, options_.sizes).size_str();
  experiment_.print_header(out, problem + "; " + std::to_string(options_.calls) + " call(s) per timed run");
  const std::vector<const RoutineVariant*> variants = open(out);
  measure_ceilings(out, variants);
  for (Routine r : options_.routines) run_routine(out, r, variants);
  return finish(out);
}

}  // namespace gpgpu::blas
