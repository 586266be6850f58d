#include "gpgpu/jacobi/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/npy.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/then_now.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {
namespace {

// Host bytes per node every run holds: 9 diagonals + f (float), Vm (float, mesh), the reference's
// iterates (3 doubles), the reference result, the initial guess and one solution copy.
constexpr double kRunBytesPerNode = 10 * 4 + 4 + 3 * 8 + 8 + 4 + 4;

const auto fmt = format_cell;

// A fixed, nonzero initial guess: every neighbour contributes from the first iteration.
std::vector<float> nonzero_guess(std::int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = 10.0f * std::sin(0.37f * static_cast<float>(k % 10007));
  return x;
}

void write_dump(const std::filesystem::path& dir, const LinearSystem& sys, const std::vector<double>& reference,
                const std::vector<std::pair<std::string, std::vector<float>>>& solutions) {
  const auto nx = static_cast<std::size_t>(sys.grid.nx), ny = static_cast<std::size_t>(sys.grid.ny);
  std::vector<float> diagonals;
  diagonals.reserve(9 * nx * ny);
  for (const auto& d : sys.A.diag) diagonals.insert(diagonals.end(), d.begin(), d.end());
  write_npy(dir / "diagonals.npy", diagonals, {9, ny, nx});
  write_npy(dir / "rhs.npy", sys.rhs, {ny, nx});
  write_npy(dir / "vm.npy", sys.vm, {ny + 2, nx + 2});
  if (!reference.empty()) write_npy(dir / "reference.npy", reference, {ny, nx});
  for (const auto& [variant, x] : solutions) write_npy(dir / ("solution_" + variant + ".npy"), x, {ny, nx});
}

// Time per iteration against the floor (minimum bytes at the variant's limit) and against chapter
// 01's CPU on the same system.
nlohmann::json print_floor_and_speedups(std::ostream& out, const std::vector<ResultRow>& rows, const CpuBaseline& cpu) {
  nlohmann::json json = nlohmann::json::object();
  std::vector<std::vector<std::string>> t{{"variant", "ms/iter", "floor ms/iter", "time/floor", "x CPU 1 thread",
                                           "x CPU " + std::to_string(cpu.threads) + " threads",
                                           "paper: GTX 280 x Phenom 1 thread"}};
  double paper_cpu = 0;
  for (const paper000::Result& r : paper000::kResults1024)
    if (r.machine == "PH 280" && r.implementation == "CPU") paper_cpu = r.seconds;
  for (const ResultRow& r : rows) {
    const double s = r.seconds() / r.work.steps;
    const double floor = floor_seconds(r.work, r.limit.gbs) / r.work.steps;
    double paper = std::nan("");
    for (const paper000::Result& p : paper000::kResults1024)
      if (p.machine == "PH 280" && p.implementation == r.paper_name) paper = paper_cpu / p.seconds;
    t.push_back({r.variant, fmt("%.4f", 1e3 * s), fmt("%.4f", 1e3 * floor), fmt("%.3f", s / floor),
                 fmt("%.1f", cpu.single_thread_s_per_iter / s), fmt("%.1f", cpu.multi_thread_s_per_iter / s),
                 fmt("%.2f", paper)});
    json[r.variant] = {{"ms_per_iter", 1e3 * s},
                       {"floor_ms_per_iter", 1e3 * floor},
                       {"time_over_floor", s / floor},
                       {"speedup_cpu_1_thread", cpu.single_thread_s_per_iter / s},
                       {"speedup_cpu_n_threads", cpu.multi_thread_s_per_iter / s}};
  }
  out << "\nAgainst the floor and the CPU:\n";
  print_text_table(out, t, 1);
  out << "  floor = minimum bytes per iteration / the variant's limit above: no kernel that moves those bytes\n"
         "  through that memory level can be faster. CPU = chapter 01's faster layout on this host, same system, "
      << cpu.sample_iters << " sampled iterations (best of 3).\n";
  return json;
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
    cli.group("Jacobi problem")
        .add_option("--sweep", sweep_,
                    "run the width sweep at height --ny instead: 'paper' (widths 508 511 512 513 516, Tables 1-2) "
                    "or 'wide' (every width from 480 to 544, and 1024 to 1056 in steps of 4)")
        ->check(CLI::IsMember({"paper", "wide"}))
        // It chooses its own widths and writes no .npy files: refuse what it would silently ignore.
        ->excludes(cli.app().get_option("--nx"))
        ->excludes(cli.app().get_option("--dump"));
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
  out << std::setprecision(4) << "Spectrum: " << spectrum_.lambda_max << " <= λmax(D⁻¹A) <= "
      << spectrum_.gershgorin_bound << " (Lanczos, " << spectrum_.steps << " steps"
      << (spectrum_.converged ? "" : ", not converged") << "; Gershgorin): weighted Jacobi converges for every ω < "
      << spectrum_.omega_safe() << " and diverges for every ω > " << spectrum_.omega_limit() << "\n";
  if (options_.omega > spectrum_.omega_limit())
    out << "Warning:  ω = " << options_.omega << " > 2/λmax = " << spectrum_.omega_limit()
        << ": the iteration diverges (results will fail verification or overflow)\n";
  else if (options_.omega >= spectrum_.omega_safe())
    out << "Warning:  ω = " << options_.omega << " >= 2/(Gershgorin bound) = " << spectrum_.omega_safe()
        << ": convergence is not guaranteed (λmax of this grid decides)\n";
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
  row.limit = limit_of(run, v);
  std::vector<float> x = solver->solution();
  if (static_cast<std::int64_t>(x.size()) != options_.grid.nodes())
    throw std::logic_error("variant '" + v.info.name + "' returned a solution of the wrong size");
  row.check = core.verify ? compare_normwise(x, reference_, jacobi_tolerance(options_.iters)) : not_verified();
  row.extra["residual"] = json_number(relative_residual(system_, std::span<const float>(x)));
  if (!core.dump_dir.empty()) solutions_.emplace_back(v.info.name, std::move(x));
  if (!row.launch.empty()) out << "  " << std::left << std::setw(20) << v.info.name << std::right << " " << v.info.source << "; " << row.launch << "\n";
  return row;
}

Report Problem::report(Experiment& run, std::ostream& out) {
  const std::vector<ResultRow>& rows = run.rows();
  if (baseline_ && !rows.empty()) run.add_json("floor_and_speedup", print_floor_and_speedups(out, rows, *baseline_));
  if (baseline_)
    run.add_json("cpu_baseline", {{"sample_iters", baseline_->sample_iters},
                                  {"single_thread_ms_per_iter", 1e3 * baseline_->single_thread_s_per_iter},
                                  {"multi_thread_ms_per_iter", 1e3 * baseline_->multi_thread_s_per_iter},
                                  {"threads", baseline_->threads}});
  run.add_json("problem", {{"nx", options_.grid.nx},
                           {"ny", options_.grid.ny},
                           {"iters", options_.iters},
                           {"omega", options_.omega},
                           {"lambda_max_lanczos", spectrum_.lambda_max},
                           {"lanczos_steps", spectrum_.steps},
                           {"gershgorin_bound", spectrum_.gershgorin_bound},
                           {"omega_diverges_above", spectrum_.omega_limit()},
                           {"omega_converges_below", spectrum_.omega_safe()},
                           {"reference_seconds", reference_seconds_}});
  // The paper's figures of every implementation that ran, in run order, and those the chapter adds.
  std::vector<std::string> implementations;
  for (const ResultRow& r : rows) implementations.push_back(r.paper_name);
  implementations.insert(implementations.end(), settings_.then_also.begin(), settings_.then_also.end());
  std::vector<std::string> distinct;
  for (const std::string& name : implementations)
    if (!name.empty() && std::find(distinct.begin(), distinct.end(), name) == distinct.end()) distinct.push_back(name);
  if (!run.options().dump_dir.empty()) write_dump(run.options().dump_dir, system_, reference_, solutions_);
  const Column residual{"residual", [](const ResultRow& r) {
                          return r.extra.contains("residual") && r.extra["residual"].is_number()
                                     ? fmt("%.3e", r.extra["residual"].get<double>())
                                     : std::string("-");
                        }};
  return {{residual}, then_now(distinct, rows)};
}

}  // namespace gpgpu::jacobi
