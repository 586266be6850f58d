#include "gpgpu/jacobi/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/report.hpp"
#include "gpgpu/jacobi/then_now.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {
namespace {

// Host bytes per node every run holds: 9 diagonals + f (float), Vm (float, mesh), the reference's
// iterates (3 doubles), the reference result, the initial guess and one solution copy.
constexpr double kRunBytesPerNode = 10 * 4 + 4 + 3 * 8 + 8 + 4 + 4;

// A fixed, nonzero initial guess: every neighbour contributes from the first iteration.
std::vector<float> nonzero_guess(std::int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = 10.0f * std::sin(0.37f * static_cast<float>(k % 10007));
  return x;
}

}  // namespace

Problem::Problem(ChapterSettings settings) : settings_(std::move(settings)) {}

Problem::~Problem() = default;

void Problem::add_options(Cli& cli) {
  jacobi::add_options(cli, options_, settings_.quick);
  if (settings_.cpu_baseline)
    cli.group("CPU comparison")
        .add_option("--cpu-sample-iters", cpu_sample_iters_,
                    "iterations of chapter 01's CPU solvers timed for the speedup columns (0 = skip)")
        ->check(integer_in_range(0, 1000))
        ->capture_default_str();
  if (settings_.width_sweep)
    add_sweep_option(cli, "Jacobi problem", sweep_,
                     "run the width sweep at height --ny instead: 'paper' (widths 508 511 512 513 516, Tables 1-2) or "
                     "'wide' (every width from 480 to 544, and 1024 to 1056 in steps of 4)",
                     {"--nx", "--dump"});
}

void Problem::parsed(Experiment&) {
  // The run's own memory first: a grid the host cannot hold is refused before anything is opened.
  if (!sweep_.empty()) options_.grid = sweep_sizes({}).back();
  require_host_memory(static_cast<double>(options_.grid.nodes()) * (kRunBytesPerNode + settings_.host_bytes_per_node),
                      "grid " + options_.grid.str());
}

std::string Problem::describe() const {
  std::ostringstream problem;
  problem << "bidomain elliptic system K(σi+σe) φe = −K(σi) Vm on "
          << (sweep_.empty() ? options_.grid.str() + " unknowns" : "height " + std::to_string(options_.grid.ny) + " (--sweep " + sweep_ + ")")
          << ", " << options_.iters << " weighted Jacobi iterations, ω = " << options_.omega;
  return problem.str();
}

Limit Problem::limit_of(Experiment& run, const Variant& v) const {
  StreamMix mix = stream_mix(v.work, options_.grid, v.info.threads);
  mix.pipeline = v.pipeline;
  return run.limit(v.info.backend, mix);
}

void Problem::measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) {
  for (const Variant* v : variants) run.print_limit(out, v->info.backend, v->work, limit_of(run, *v));
}

void Problem::prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>&) {
  Stopwatch clock;
  system_ = assemble_bidomain(options_.grid);
  if (!sweep_.empty()) {
    // A sweep point starts from a fixed nonzero guess, so that every neighbour contributes from the
    // first iteration, and is verified after a few iterations, which keeps the reference cheap.
    x0_ = nonzero_guess(options_.grid.nodes());
    reference_iters_ = std::min(kSweepVerifyIters, options_.iters);
    reference_ = jacobi_reference(system_, x0_, reference_iters_, options_.omega);
    return;
  }
  x0_.assign(static_cast<std::size_t>(options_.grid.nodes()), 0.0f);
  const auto flags = out.flags();
  out << "Assembly: " << std::fixed << std::setprecision(3) << clock.seconds() << " s (Q1 elements, 2x2 Gauss)\n";
  spectrum_ = estimate_jacobi_spectrum(system_.A);
  print_spectrum(out, spectrum_, options_.omega);
  if (run.options().verify) {
    Progress progress("CPU reference (double precision)");
    clock.restart();
    reference_ = jacobi_reference(system_, x0_, options_.iters, options_.omega,
                                  [&](int done, int total) { progress.update(done, total); });
    reference_iters_ = options_.iters;
    reference_seconds_ = clock.seconds();
    out << "Reference: CPU double precision, " << std::setprecision(3) << reference_seconds_
        << " s; every variant is compared with it before its numbers are printed\n";
  } else {
    out << "Reference: skipped (--no-verify): results are NOT checked\n";
  }
  out.flags(flags);
  if (settings_.cpu_baseline && cpu_sample_iters_ > 0) {
    baseline_ = std::make_unique<CpuBaseline>(settings_.cpu_baseline(system_, cpu_sample_iters_));
    out << "CPU:      chapter 01 on this host, " << cpu_sample_iters_ << " sampled iterations: "
        << fmt("%.3f", 1e3 * baseline_->single_thread_s_per_iter) << " ms/iter on 1 thread, "
        << fmt("%.3f", 1e3 * baseline_->multi_thread_s_per_iter) << " ms/iter on " << baseline_->threads
        << " threads\n";
  }
}

ResultRow Problem::measure(Experiment& run, std::ostream& out, const Variant& v) {
  if (!sweep_.empty()) return measure_point(run, v);
  std::unique_ptr<Solver> solver = v.make(system_, run.session_of(v.info));
  constexpr int kTuneIters = 20;
  const std::string tuned = solver->tune(kTuneIters, static_cast<float>(options_.omega));
  if (!tuned.empty()) out << "  " << v.info.name << " tuned: " << tuned << "\n";
  const CoreOptions& core = run.options();
  ResultRow row = run.row_for(v.info);
  row.samples = repeat_runs(core.warmup, core.repeat, [&] {
    solver->reset(x0_);
    return solver->iterate(options_.iters, static_cast<float>(options_.omega));
  });
  row.launch = solver->launch();
  if (!tuned.empty()) row.launch += (row.launch.empty() ? "" : "; ") + std::string("tuned: ") + tuned;
  row.work = work(v.work, options_.grid, options_.iters);
  row.work.reuses_across_steps = v.reuses_across_sweeps;
  row.limit = limit_of(run, v);
  std::vector<float> x = solver->solution();
  if (static_cast<std::int64_t>(x.size()) != options_.grid.nodes())
    throw std::logic_error("variant '" + v.info.name + "' returned a solution of the wrong size");
  row.check = core.verify ? compare_normwise(x, reference_, jacobi_tolerance(options_.iters)) : not_verified();
  row.extra["residual"] = json_number(relative_residual(system_, std::span<const float>(x)));
  if (!core.dump_dir.empty()) solutions_.emplace_back(v.info.name, std::move(x));
  return row;
}

Report Problem::report(Experiment& run, std::ostream& out) {
  const std::vector<ResultRow>& rows = run.rows();
  if (baseline_ && !rows.empty()) run.add_json("floor_and_speedup", print_floor_and_speedups(out, rows, *baseline_));
  if (baseline_) run.add_json("cpu_baseline", *baseline_);
  nlohmann::json problem = spectrum_;
  problem.update({{"nx", options_.grid.nx}, {"ny", options_.grid.ny}, {"iters", options_.iters},
                  {"omega", options_.omega}, {"reference_seconds", reference_seconds_}});
  run.add_json("problem", problem);
  // The paper's figures of every implementation that ran, in run order, and those the chapter adds.
  std::vector<std::string> implementations;
  for (const ResultRow& r : rows) implementations.push_back(r.paper_name);
  implementations.insert(implementations.end(), settings_.then_also.begin(), settings_.then_also.end());
  std::vector<std::string> distinct;
  for (const std::string& name : implementations)
    if (!name.empty() && std::find(distinct.begin(), distinct.end(), name) == distinct.end()) distinct.push_back(name);
  if (DumpFolder* dump = run.dump()) write_dump(*dump, system_, reference_, solutions_);
  return {{extra_column("residual", "residual", "%.3e")}, then_now(distinct, rows)};
}

}  // namespace gpgpu::jacobi
