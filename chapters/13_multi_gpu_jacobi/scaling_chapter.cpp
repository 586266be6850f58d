// Chapter 13's run: the Jacobi system, each variant verified bit for bit against its baseline and
// within the bound of the CPU reference, its time split into compute and exchange.
#include "scaling_chapter.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "gpgpu/memory.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/report.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "scaling_solver.hpp"

namespace ch13 {

using gpgpu::Experiment;
using gpgpu::ResultRow;
using gpgpu::jacobi::Grid;

namespace {

// Host bytes per node: the system (9 diagonals, f, Vm), the reference's iterates (3 doubles) and
// result, the initial guess, a solution and a baseline's solution.
constexpr double kHostBytesPerNode = 11 * 4 + 4 * 8 + 3 * 4;

// Split timings: each mode run this many times, the median kept.
constexpr int kSplitRuns = 3;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

void Problem::add_options(gpgpu::Cli& cli) {
  gpgpu::jacobi::add_options(cli, options_, {{96, 77}, 60});
  cli.group("Multi-GPU")
      .add_option("--gpus", gpus_, "GPUs of the one-process variants (0: every GPU of the machine); "
                                   "the NCCL and MPI variants use one GPU per rank (mpirun -np G)")
      ->check(gpgpu::integer_in_range(0, 64))
      ->capture_default_str();
  gpgpu::jacobi::add_convergence_options(cli, check_);
}

void Problem::parsed(Experiment&) {
  gpgpu::require_host_memory(static_cast<double>(options_.grid.nodes()) * kHostBytesPerNode,
                             "grid " + options_.grid.str());
}

std::string Problem::describe() const {
  std::ostringstream s;
  s << "bidomain elliptic system on " << options_.grid.str() << " unknowns, " << options_.iters
    << " weighted Jacobi iterations, ω = " << options_.omega << ", rows split over the GPUs (or ranks)";
  if (check_.on())
    s << "; the update norm ‖x_k − x_{k−1}‖₂ every " << check_.check_every << " iteration(s), stopping below "
      << check_.tol << (check_.overlap ? ", reduced while the next iteration runs (--check-overlap on)"
                                       : ", waited for before the next iteration (--check-overlap off)");
  return s.str();
}

std::vector<const Variant*> Problem::select(const Experiment&, std::vector<const Variant*> chosen) {
  // Every split variant is compared with its baseline's solution: run the baseline first.
  std::vector<const Variant*> with_baselines;
  const auto has = [&](const std::string& name) {
    return std::any_of(chosen.begin(), chosen.end(), [&](const Variant* v) { return v->info.name == name; }) ||
           std::any_of(with_baselines.begin(), with_baselines.end(), [&](const Variant* v) { return v->info.name == name; });
  };
  for (const Variant* v : chosen)
    if (!v->baseline.empty() && !has(v->baseline)) with_baselines.push_back(find_(v->baseline));
  with_baselines.insert(with_baselines.end(), chosen.begin(), chosen.end());
  std::stable_partition(with_baselines.begin(), with_baselines.end(), [](const Variant* v) { return v->baseline.empty(); });
  return with_baselines;
}

gpgpu::Limit Problem::limit_of(Experiment& run, const Variant& v, int parts) const {
  Grid part = options_.grid;
  part.ny = (part.ny + parts - 1) / parts;
  gpgpu::StreamMix mix = gpgpu::jacobi::stream_mix(v.work, part, v.info.threads);
  mix.pipeline = v.pipeline;
  gpgpu::Limit l = run.limit(v.info.backend, mix);
  // CPU ranks share one host's memory: its limit, measured on every core, judges them all at once.
  if (parts == 1 || v.info.backend == gpgpu::Backend::cpu) return l;
  l.name = std::to_string(parts) + " GPUs x " + l.name;
  l.gbs *= parts;
  if (std::isfinite(l.theoretical_gbs)) l.theoretical_gbs *= parts;
  if (std::isfinite(l.stream_gbs)) l.stream_gbs *= parts;
  return l;
}

void Problem::measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) {
  for (const Variant* v : variants) run.print_limit(out, v->info.backend, v->work, limit_of(run, *v, 1));
  const bool split_on_gpus = std::any_of(variants.begin(), variants.end(), [](const Variant* v) {
    return v->info.backend == gpgpu::Backend::cuda && !v->baseline.empty();
  });
  if (!split_on_gpus) return;
  link_ = measure_link_of_gpus_0_and_1(static_cast<std::size_t>(options_.grid.nx) * sizeof(float));
  if (link_.measured)
    out << "Limit:    " << link_.name << ": " << gpgpu::format_cell("%.1f", link_.gbs_each_way)
        << " GB/s each way (256 MiB copies); one row of " << options_.grid.nx * 4 << " B each way: "
        << gpgpu::format_cell("%.1f", link_.row_exchange_us) << " µs\n";
}

void Problem::prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>&) {
  gpgpu::Stopwatch clock;
  system_ = gpgpu::jacobi::assemble_bidomain(options_.grid);
  x0_.assign(static_cast<std::size_t>(options_.grid.nodes()), 0.0f);
  out << "Assembly: " << gpgpu::format_cell("%.3f", clock.seconds()) << " s\n";
  if (!run.options().verify) {
    out << "Reference: skipped (--no-verify): results are NOT checked against the CPU (still bit for bit against "
           "the baseline)\n";
    return;
  }
  gpgpu::Progress progress("CPU reference (double precision)");
  clock.restart();
  reference_ = gpgpu::jacobi::jacobi_reference_until(system_, x0_, options_.iters, options_.omega, check_,
                                                     [&](int done, int total) { progress.update(done, total); });
  out << "Reference: CPU double precision, " << gpgpu::format_cell("%.3f", clock.seconds())
      << " s; every variant is compared with it and, bit for bit, with its baseline's solution\n";
  if (check_.on())
    out << "Reference: stopped after " << reference_.stop.iterations << " iterations, update norm "
        << gpgpu::format_cell("%.6e", reference_.stop.norm) << "\n";
}

ResultRow Problem::measure(Experiment& run, std::ostream& out, const Variant& v) {
  std::unique_ptr<gpgpu::jacobi::Solver> solver = v.make(system_, run.session_of(v.info));
  auto* split = dynamic_cast<ScalingSolver*>(solver.get());
  const int parts = split != nullptr ? split->parts() : 1;
  const auto omega = static_cast<float>(options_.omega);
  const gpgpu::CoreOptions& core = run.options();
  // The baseline and every split variant pick their launch alike (ScalingSolver::tune), so that an
  // efficiency compares each at its best: a quarter of the run's iterations per shape, at most 200.
  solver->reset(x0_);
  const std::string tuned = solver->tune(std::clamp(options_.iters / 4, 1, 200), omega);
  if (!tuned.empty()) out << "  " << v.info.name << " tuned: " << tuned << "\n";
  ResultRow row = run.row_for(v.info);
  if (split != nullptr) split->set_convergence(check_);
  row.samples = gpgpu::repeat_runs(core.warmup, core.repeat, [&] {
    solver->reset(x0_);
    return solver->iterate(options_.iters, omega);
  });
  row.launch = solver->launch();
  if (!tuned.empty()) row.launch += "; tuned: " + tuned;
  // A run that stops on convergence did the iterations up to its stop, not --iters: its rates and
  // times per iteration count those (an overlapped check's one discarded sweep is its own cost).
  const int done = check_.on() && split != nullptr ? split->stop().iterations : options_.iters;
  row.work = gpgpu::jacobi::work(v.work, options_.grid, done);
  row.limit = limit_of(run, v, parts);
  if (parts > 1) row.device = std::to_string(parts) + " x " + row.device;
  std::vector<float> x = solver->solution();
  if (static_cast<std::int64_t>(x.size()) != options_.grid.nodes())
    throw std::logic_error("variant '" + v.info.name + "' returned a solution of the wrong size");

  // Two checks: within the bound of the CPU reference (the arithmetic is chapter 07b's or 01's),
  // and identical to the baseline's solution, bit for bit (splitting the rows changes no operation).
  row.check = core.verify ? gpgpu::compare_normwise(x, reference_.x, gpgpu::jacobi::jacobi_tolerance(options_.iters))
                          : gpgpu::not_verified();
  if (!v.baseline.empty()) {
    const auto base = baseline_solutions_.find(v.baseline);
    if (base == baseline_solutions_.end()) throw std::logic_error("baseline '" + v.baseline + "' did not run before " + v.info.name);
    const gpgpu::Verification same = gpgpu::compare_exact(x, base->second);
    row.extra["bitwise_equal_to"] = v.baseline;
    row.extra["bitwise_mismatches"] = same.mismatches;
    std::string basis = same.pass ? "bit for bit equal to " + v.baseline
                                  : std::to_string(same.mismatches) + " values differ from " + v.baseline +
                                        " (first at index " + std::to_string(same.worst_index) + ")";
    if (row.check.checked && row.check.non_finite == 0) {
      char normwise[160];
      std::snprintf(normwise, sizeof normwise, "rel. error %.2e (max-norm %.2e) %s tolerance %.1e; ", row.check.rel_l2,
                    row.check.rel_max, row.check.pass ? "<=" : ">", row.check.tolerance);
      basis = normwise + basis;
    }
    if (!row.check.checked) row.check = same;
    row.check.pass = row.check.pass && same.pass;
    row.check.basis = basis;
  }
  row.extra["gpus"] = parts;
  if (check_.on()) {
    if (split == nullptr) throw std::logic_error("variant '" + v.info.name + "' cannot stop on convergence");
    check_stop(row, v, split->stop(), core.verify);
    row.extra["check_overlapped"] = split->overlaps_check();
    split->set_convergence({});  // the split timings below run the fixed count
  }

  if (!core.dump_dir.empty()) dumped_.emplace_back(v.info.name, x);
  const double seconds = row.seconds();
  if (v.baseline.empty()) {
    baseline_solutions_[v.info.name] = std::move(x);
    if (split != nullptr) baseline_stops_[v.info.name] = split->stop();
    baseline_seconds_[v.info.name] = seconds;
    return row;
  }
  if (const auto t1 = baseline_seconds_.find(v.baseline); t1 != baseline_seconds_.end())
    row.extra["efficiency"] = t1->second / (parts * seconds);
  // Where the time goes: the same iterations with the compute alone and with the exchange alone.
  if (split != nullptr) {
    std::vector<double> compute, exchange;
    for (int r = 0; r < kSplitRuns; ++r) {
      solver->reset(x0_);
      compute.push_back(split->timed(options_.iters, omega, Mode::compute_only));
      solver->reset(x0_);
      exchange.push_back(split->timed(options_.iters, omega, Mode::exchange_only));
    }
    const double per_iter = 1e3 / options_.iters;
    const double compute_ms = median_of(compute) * per_iter, exchange_ms = median_of(exchange) * per_iter;
    row.extra["compute_ms"] = compute_ms;
    row.extra["exposed_exchange_ms"] = seconds * 1e3 / done - compute_ms;
    if (std::isfinite(exchange_ms)) {
      row.extra["exchange_ms"] = exchange_ms;
      // Bytes each interface moves per iteration in each direction: one row.
      const double gbs = options_.grid.nx * 4.0 / (exchange_ms * 1e-3) / 1e9;
      row.extra["exchange_gbs_each_way"] = gbs;
      if (link_.measured && v.info.backend == gpgpu::Backend::cuda) row.extra["exchange_share_of_link"] = gbs / link_.gbs_each_way;
    }
  }
  return row;
}

//! [check_stop]
// The variant must stop where the reference stops (and where its baseline stopped), with a norm
// within update_norm_bound of the reference's. A tolerance that falls within that bound of a
// checked norm makes the stopping iteration a coin toss between float and double: the message says
// so, and another --tol settles it.
void Problem::check_stop(ResultRow& row, const Variant& v, const gpgpu::jacobi::Stop& stop, bool verify) {
  row.extra["stop_iteration"] = stop.iterations;
  row.extra["update_norm"] = stop.norm;
  std::ostringstream why;
  bool pass = true;
  const gpgpu::jacobi::Stop& ref = reference_.stop;
  if (!verify) {
    why << "stopped after " << stop.iterations << " iterations (no reference: --no-verify)";
  } else if (stop.iterations != ref.iterations) {
    pass = false;
    why << "stopped after " << stop.iterations << " iterations, the reference after " << ref.iterations;
    const double bound = gpgpu::jacobi::update_norm_bound(ref.norm, reference_.x_norm, ref.iterations, options_.grid.nodes());
    if (std::abs(ref.norm - check_.tol) <= bound) why << " (--tol lies within the norms' bound of the reference's norm: choose another)";
  } else if (std::isnan(stop.norm) != std::isnan(ref.norm)) {
    pass = false;
    why << "norm " << stop.norm << " where the reference's is " << ref.norm;
  } else if (!std::isnan(ref.norm)) {
    const double bound = gpgpu::jacobi::update_norm_bound(ref.norm, reference_.x_norm, ref.iterations, options_.grid.nodes());
    const double diff = std::abs(stop.norm - ref.norm);
    row.extra["update_norm_bound"] = bound;
    pass = diff <= bound;
    why << "stopped after " << stop.iterations << " iterations as the reference, norm " << gpgpu::format_cell("%.6e", stop.norm)
        << (pass ? " within " : " NOT within ") << gpgpu::format_cell("%.1e", bound) << " of the reference's";
  }
  if (!v.baseline.empty()) {
    const auto base = baseline_stops_.find(v.baseline);
    if (base != baseline_stops_.end() && base->second.iterations != stop.iterations) {
      pass = false;
      why << "; " << v.baseline << " stopped after " << base->second.iterations;
    }
  }
  row.check.pass = row.check.pass && pass;
  row.check.basis = row.check.basis.empty() ? why.str() : row.check.basis + "; " + why.str();
}
//! [check_stop]

gpgpu::Report Problem::report(Experiment& run, std::ostream&) {
  nlohmann::json problem = {{"nx", options_.grid.nx}, {"ny", options_.grid.ny}, {"iters", options_.iters}, {"omega", options_.omega}};
  if (check_.on())
    problem["convergence"] = {{"tol", check_.tol},
                              {"check_every", check_.check_every},
                              {"check_overlap", check_.overlap},
                              {"reference_stop_iteration", reference_.stop.iterations},
                              {"reference_update_norm", reference_.stop.norm}};
  run.add_json("problem", problem);
  if (gpgpu::DumpFolder* dump = run.dump()) gpgpu::jacobi::write_dump(*dump, system_, reference_.x, dumped_);
  if (link_.measured)
    run.add_json("peer_link", {{"name", link_.name}, {"gbs_each_way", link_.gbs_each_way},
                               {"row_bytes", options_.grid.nx * 4}, {"row_exchange_us", link_.row_exchange_us}});
  gpgpu::Report r{{gpgpu::extra_column("G", "gpus", "%.0f"), gpgpu::extra_column("eff.", "efficiency", "%.1f%%"),
           gpgpu::extra_column("compute ms", "compute_ms", "%.4f"),
           gpgpu::extra_column("exch. alone ms", "exchange_ms", "%.4f"),
           gpgpu::extra_column("exposed ms", "exposed_exchange_ms", "%.4f"),
           gpgpu::extra_column("exch. % link", "exchange_share_of_link", "%.2f%%")},
          {}};
  if (check_.on()) {
    r.columns.push_back(gpgpu::extra_column("stop", "stop_iteration", "%.0f"));
    r.columns.push_back(gpgpu::extra_column("norm", "update_norm", "%.4e"));
  }
  return r;
}

}  // namespace ch13
