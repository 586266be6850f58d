#include "gpgpu/matrix/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/matrix/report.hpp"
#include "gpgpu/matrix/sweep.hpp"
#include "gpgpu/matrix/then_now.hpp"

namespace gpgpu::matrix {
namespace {

// Host matrices every run holds, in elements of the chosen type: A, B, the references of add,
// transpose and copy, and one downloaded result (plus the one kept per variant for --dump).
constexpr double kRunMatrices = 6;

const auto fmt = format_cell;

std::vector<Op> ops_of(const std::vector<const VariantSpec*>& variants) {
  std::vector<Op> ops;
  for (const VariantSpec* v : variants)
    if (std::find(ops.begin(), ops.end(), v->op) == ops.end()) ops.push_back(v->op);
  return ops;
}

}  // namespace

Chapter::Chapter(ChapterInfo info, ChapterSettings settings)
    : settings_(settings), experiment_(std::move(info), settings_.cli) {}

Chapter::~Chapter() = default;

void Chapter::add(VariantSpec spec) {
  experiment_.use(spec.opener);
  registry_.add(std::move(spec));
}

void Chapter::parse(int argc, const char* const* argv) {
  for (const VariantSpec& s : static_registry<VariantSpec>().all()) add(s);
  add_options(cli(), options_, settings_.default_shape, settings_.quick);
  if (settings_.sweep)
    cli().group("Matrix problem")
        .add_option("--sweep", sweep_,
                    "run paper 003's sizes instead of one: 'paper' (n x n for n = 16, 32, ..., 4096, Tabs. 8-10) or "
                    "'wide' (also 8192 and 16384, beyond the L2); with --quick up to 256")
        ->check(CLI::IsMember({"paper", "wide"}))
        // It chooses its own sizes and keeps no results for .npy files: refuse what it would ignore.
        ->excludes(cli().app().get_option("--n"))
        ->excludes(cli().app().get_option("--rows"))
        ->excludes(cli().app().get_option("--cols"))
        ->excludes(cli().app().get_option("--dump"));
  experiment_.parse(argc, argv, registry_.names(), registry_.names_in_all());
  // A sweep opens, checks and refuses at its largest size (the sizes it runs are square).
  if (!sweep_.empty()) options_.shape = sweep_shapes(sweep_, experiment_.options().quick).back();
  require_host_memory(kRunMatrices * static_cast<double>(options_.shape.elements()) * type_bytes(options_.type),
                      "matrix " + options_.shape.str());
}

std::vector<const VariantSpec*> Chapter::open(std::ostream& out) {
  const std::string size = sweep_.empty() ? options_.shape.str() + " elements"
                                           : "n x n elements, n up to " + std::to_string(options_.shape.rows) +
                                                 " (--sweep " + sweep_ + ")";
  experiment_.print_header(out, std::string(type_name(options_.type)) + " matrices of " + size + ", " +
                                    std::to_string(options_.calls) + " call(s) per timed run");
  return experiment_.open_variants(out, registry_, [&](const VariantSpec& v, Session& s) -> std::optional<std::string> {
    if (!v.limitation) return std::nullopt;
    return v.limitation(options_.shape, options_.type, s);
  });
}

void Chapter::check_fits(const std::vector<const VariantSpec*>& variants) {
  for (const VariantSpec* v : variants)
    if (v->check_fits) v->check_fits(options_.shape, options_.type, session_of(*v));
}

Limit Chapter::limit_of(const VariantSpec& spec) {
  return experiment_.limit(spec.info.backend, stream_mix(spec.op, options_.shape, options_.type, spec.threads));
}

void Chapter::measure_limits(std::ostream& out, const std::vector<const VariantSpec*>& variants) {
  for (const VariantSpec* v : variants) experiment_.print_limit(out, v->info.backend, std::string(op_name(v->op)), limit_of(*v));
}

double Chapter::make_inputs(const std::vector<const VariantSpec*>& variants) {
  inputs_.a = random_matrix(options_.shape, options_.type, 1);
  inputs_.b = random_matrix(options_.shape, options_.type, 2);
  references_.clear();
  Stopwatch clock;
  if (!experiment_.options().verify) return 0;
  for (Op op : ops_of(variants)) {
    if (op == Op::add) references_[op] = add_reference(inputs_.a, inputs_.b);
    if (op == Op::transpose) references_[op] = transpose_reference(inputs_.a);
    if (op == Op::copy) references_[op] = inputs_.a;
  }
  return clock.seconds();
}

void Chapter::prepare(std::ostream& out, const std::vector<const VariantSpec*>& variants) {
  const double seconds = make_inputs(variants);
  if (experiment_.options().verify)
    out << "Reference: CPU, " << fmt("%.3f", seconds) << " s; every variant must match it bit for bit before its numbers are printed\n";
  else
    out << "Reference: skipped (--no-verify): results are NOT checked\n";
}

Measurement Chapter::measure(const VariantSpec& spec) {
  std::unique_ptr<Kernel> kernel = spec.make(options_.shape, options_.type, session_of(spec));
  const CoreOptions& core = experiment_.options();
  Measurement m;
  kernel->upload(inputs_);
  // The first call on the host's clock: CUDA loads a kernel's module at its first launch (lazy
  // loading), an OpenCL driver may finish a kernel's compilation then; the timed runs exclude it.
  Stopwatch first;
  (void)kernel->run(1);
  m.first_call_s = first.seconds();
  kernel->upload(inputs_);  // poisoned again: the timed runs must write every element themselves
  m.samples = repeat_runs(core.warmup, core.repeat, [&] { return kernel->run(options_.calls); });
  m.result = kernel->download();
  m.launch = kernel->launch();
  m.check = core.verify ? compare(m.result, references_.at(spec.op)) : not_verified();
  // The paper's kind of time: the operands up, one call, the result down, on the host's clock.
  m.with_copies_s = repeat_runs(0, core.repeat, [&] {
    Stopwatch clock;
    kernel->upload(inputs_);
    kernel->run(1);
    (void)kernel->download();
    return clock.seconds();
  });
  return m;
}

const ResultRow& Chapter::run_variant(std::ostream& out, const VariantSpec& spec) {
  Measurement m = measure(spec);
  ResultRow row = experiment_.row_for(spec.info, spec.threads);
  row.timer = spec.timer;
  row.samples = std::move(m.samples);
  row.launch = m.launch;
  row.work = work(spec.op, options_.shape, options_.type, options_.calls);
  row.limit = limit_of(spec);
  row.check = m.check;
  row.extra["ms_with_copies"] = 1e3 * median(m.with_copies_s);
  row.extra["ms_first_call"] = 1e3 * m.first_call_s;
  if (!experiment_.options().dump_dir.empty()) results_.emplace_back(spec.info.name, std::move(m.result));
  if (!row.launch.empty()) out << "  " << std::left << std::setw(22) << spec.info.name << std::right << " " << row.launch << "\n";
  return experiment_.record(out, std::move(row));
}

std::vector<PortRatio> Chapter::port_ratios() const {
  std::vector<PortRatio> ratios;
  const std::vector<ResultRow>& rows = experiment_.rows();
  const auto find = [&](const std::string& name) -> const ResultRow* {
    for (const ResultRow& r : rows)
      if (r.variant == name) return &r;
    return nullptr;
  };
  for (const ResultRow& r : rows) {
    const VariantSpec& port = registry_.at(r.variant);
    const ResultRow* original = port.ports.empty() ? nullptr : find(port.ports);
    if (original == nullptr) continue;
    PortRatio p;
    p.n = options_.shape.rows;
    p.variant = r.variant;
    p.original = original->variant;
    p.kernel_ratio = r.seconds() / original->seconds();
    p.copies_ratio = r.extra.at("ms_with_copies").get<double>() / original->extra.at("ms_with_copies").get<double>();
    p.paper_ratio = options_.shape.rows == options_.shape.cols
                        ? paper_port_ratio(port.op, port.info.paper_name, original->paper_name, options_.shape.rows, &p.paper_table)
                        : std::nan("");
    ratios.push_back(std::move(p));
  }
  return ratios;
}

int Chapter::finish(std::ostream& out) {
  const CoreOptions& core = experiment_.options();
  if (!core.dump_dir.empty()) {
    const std::filesystem::path dir = core.dump_dir;
    write_npy(dir / "a.npy", inputs_.a);
    write_npy(dir / "b.npy", inputs_.b);
    for (const auto& [op, ref] : references_) write_npy(dir / ("reference_" + std::string(op_name(op)) + ".npy"), ref);
    for (const auto& [name, m] : results_) write_npy(dir / ("result_" + name + ".npy"), m);
  }
  experiment_.add_json("problem", {{"rows", options_.shape.rows},
                                   {"cols", options_.shape.cols},
                                   {"type", type_name(options_.type)},
                                   {"calls", options_.calls}});
  std::vector<Op> ops;
  for (const ResultRow& r : experiment_.rows())
    for (Op op : {Op::add, Op::transpose, Op::copy})
      if (r.work.kernel.starts_with(std::string(op_name(op)) + "_") && std::find(ops.begin(), ops.end(), op) == ops.end())
        ops.push_back(op);
  const auto extra_ms = [](const char* key) {
    return [key](const ResultRow& r) {
      return r.extra.contains(key) ? fmt("%.4f", r.extra[key].get<double>()) : std::string("-");
    };
  };
  const std::vector<Column> columns{{"ms w/ copies", extra_ms("ms_with_copies")}, {"ms 1st call", extra_ms("ms_first_call")}};
  experiment_.add_json("startup", print_startup(out, experiment_));
  const std::vector<PortRatio> ratios = port_ratios();
  print_port_ratios(out, ratios);
  experiment_.add_json("port_ratios", ratios);
  return experiment_.finish(out, columns, then_now(ops, options_.shape, options_.type, experiment_.rows()));
}

int Chapter::run(int argc, char** argv) {
  parse(argc, argv);
  std::ostream& out = std::cout;
  const std::vector<const VariantSpec*> variants = open(out);
  check_fits(variants);
  if (!sweep_.empty()) return run_sweep(*this, out, variants);
  measure_limits(out, variants);
  prepare(out, variants);
  out << "Verification:\n";
  for (const VariantSpec* v : variants) run_variant(out, *v);
  return finish(out);
}

}  // namespace gpgpu::matrix
