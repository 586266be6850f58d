#include "gpgpu/matrix/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

#include "gpgpu/memory.hpp"
#include "gpgpu/operation_timing.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/matrix/then_now.hpp"

namespace gpgpu::matrix {
namespace {

// Host matrices every run holds, in elements of the chosen type: A, B, the references of add,
// transpose and copy, and one downloaded result (plus the one kept per variant for --dump).
constexpr double kRunMatrices = 6;

std::vector<Op> ops_of(const std::vector<const Variant*>& variants) {
  std::vector<Op> ops;
  for (const Variant* v : variants)
    if (std::find(ops.begin(), ops.end(), v->op) == ops.end()) ops.push_back(v->op);
  return ops;
}

}  // namespace

void Problem::add_options(Cli& cli) {
  matrix::add_options(cli, options_, settings_.default_shape, settings_.quick);
  if (settings_.sweep)
    add_sweep_option(cli, "Matrix problem", sweep_,
                     "run paper 003's sizes instead of one: 'paper' (n x n for n = 16, 32, ..., 4096, Tabs. 8-10) or "
                     "'wide' (also 8192 and 16384, beyond the L2); with --quick up to 256",
                     {"--n", "--rows", "--cols", "--dump"});
}

void Problem::parsed(Experiment& run) {
  // A sweep opens, checks and refuses at its largest size (the sizes it runs are square).
  if (!sweep_.empty()) options_.shape = sweep_sizes(run.options()).back().shape;
  require_host_memory(kRunMatrices * static_cast<double>(options_.shape.elements()) * type_bytes(options_.type),
                      "matrix " + options_.shape.str());
}

std::string Problem::describe() const {
  const std::string size = sweep_.empty() ? options_.shape.str() + " elements"
                                          : "n x n elements, n up to " + std::to_string(options_.shape.rows) +
                                                " (--sweep " + sweep_ + ")";
  return std::string(type_name(options_.type)) + " matrices of " + size + ", " + std::to_string(options_.calls) +
         " call(s) per timed run";
}

Limit Problem::limit_of(Experiment& run, const Variant& v) const {
  return run.limit(v.info.backend, stream_mix(v.op, options_.shape, options_.type, v.info.threads));
}

void Problem::measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) {
  for (const Variant* v : variants) run.print_limit(out, v->info.backend, std::string(op_name(v->op)), limit_of(run, *v));
}

void Problem::prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) {
  variants_ = variants;
  inputs_ = random_inputs(size(), 1);
  references_.clear();
  if (!run.options().verify) {
    out << "Reference: skipped (--no-verify): results are NOT checked\n";
    return;
  }
  Stopwatch clock;
  for (Op op : ops_of(variants))
    references_[op] = op == Op::add ? add_reference(inputs_.a, inputs_.b)
                      : op == Op::transpose ? transpose_reference(inputs_.a)
                                            : inputs_.a;
  out << "Reference: CPU, " << fmt("%.3f", clock.seconds())
      << " s; every variant must match it bit for bit before its numbers are printed\n";
}

ResultRow Problem::measure(Experiment& run, std::ostream&, const Variant& v) {
  const CoreOptions& core = run.options();
  const std::unique_ptr<Operation> op = v.make(inputs_, run.session_of(v.info));
  OperationTimes<HostMatrix> t = time_operation(*op, inputs_, core, options_.calls);
  ResultRow row = run.row_for(v.info);
  row.samples = std::move(t.samples);
  row.check = core.verify ? compare(t.result, references_.at(v.op)) : not_verified();
  row.launch = op->launch();
  row.work = work(v.op, options_.shape, options_.type, options_.calls);
  row.limit = limit_of(run, v);
  row.extra["ms_with_copies"] = 1e3 * median(t.with_copies_s);  // the paper's kind of time
  row.extra["ms_first_call"] = 1e3 * t.first_call_s;
  if (!sweep_.empty()) row.extra["n"] = options_.shape.rows;
  if (!core.dump_dir.empty()) results_.emplace_back(v.info.name, std::move(t.result));
  return row;
}

const Variant& Problem::variant_of(const ResultRow& row) const {
  for (const Variant* v : variants_)
    if (v->info.name == row.variant) return *v;
  throw std::logic_error("a row of variant '" + row.variant + "', which did not run");
}

std::vector<PortRatio> Problem::port_ratios(const std::vector<ResultRow>& rows) const {
  const auto n_of = [&](const ResultRow& r) { return r.extra.value("n", options_.shape.rows); };
  const bool square = options_.shape.rows == options_.shape.cols;  // the paper's sizes are n x n
  std::vector<PortRatio> ratios;
  for (const ResultRow& r : rows) {
    const Variant& port = variant_of(r);
    for (const ResultRow& o : rows) {
      if (port.ports.empty() || o.variant != port.ports || n_of(o) != n_of(r)) continue;
      PortRatio p{.n = n_of(r), .variant = r.variant, .original = o.variant, .kernel_ratio = r.seconds() / o.seconds(),
                  .copies_ratio = ms_with_copies(r) / ms_with_copies(o), .paper_ratio = std::nan(""), .paper_table = ""};
      if (square) p.paper_ratio = paper_port_ratio(port.op, r.paper_name, o.paper_name, p.n, &p.paper_table);
      ratios.push_back(std::move(p));
    }
  }
  return ratios;
}

Report Problem::report(Experiment& run, std::ostream& out) {
  if (DumpFolder* dump = run.dump()) {
    write_npy(*dump, "a.npy", inputs_.a);
    write_npy(*dump, "b.npy", inputs_.b);
    for (const auto& [op, ref] : references_) write_npy(*dump, "reference_" + std::string(op_name(op)) + ".npy", ref);
    for (const auto& [name, m] : results_) write_npy(*dump, "result_" + name + ".npy", m);
  }
  run.add_json("problem", {{"rows", options_.shape.rows}, {"cols", options_.shape.cols},
                           {"type", type_name(options_.type)}, {"calls", options_.calls}});
  run.add_json("startup", print_startup(out, run));
  const std::vector<PortRatio> ratios = port_ratios(run.rows());
  print_port_ratios(out, ratios);
  run.add_json("port_ratios", ratios);
  return {{extra_column("ms w/ copies", "ms_with_copies", "%.4f"), extra_column("ms 1st call", "ms_first_call", "%.4f")},
          then_now(ops_of(variants_), options_.shape, options_.type, run.rows())};
}

double ms_with_copies(const ResultRow& r) { return r.extra.at("ms_with_copies").get<double>(); }

}  // namespace gpgpu::matrix
