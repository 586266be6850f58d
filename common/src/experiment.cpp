#include "gpgpu/experiment.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>

#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/npy.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/reference.hpp"
#include "gpgpu/sysinfo.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu {
namespace {

// Host bytes per node the experiment itself holds: 9 diagonals + rhs (float), Vm (float, mesh),
// reference iterates (3 doubles), the reference result and a solution copy.
constexpr double kExperimentBytesPerNode = 10 * 4 + 4 + 3 * 8 + 8 + 4;

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

}  // namespace

std::vector<double> repeat_runs(const CommonOptions& opt, const std::function<double()>& run_once) {
  for (int i = 0; i < opt.warmup; ++i) run_once();
  std::vector<double> samples;
  for (int i = 0; i < opt.repeat; ++i) samples.push_back(run_once());
  return samples;
}

JacobiExperiment::JacobiExperiment(ChapterInfo info, const CommonOptions& options, double chapter_bytes_per_node)
    : info_(std::move(info)), options_(options) {
  validate_grid(options_.grid);
  const double nodes = static_cast<double>(options_.grid.nodes());
  require_host_memory(nodes * (kExperimentBytesPerNode + chapter_bytes_per_node),
                      "grid " + options_.grid.str());
}

void JacobiExperiment::print_header(std::ostream& out) const {
  out << "Chapter " << info_.id << ": " << info_.title << "\n"
      << "Retells: " << info_.paper << "\n";
  print_host_info(out, host_info());
  out << "Problem:  bidomain elliptic system K(σi+σe) φe = −K(σi) Vm on " << options_.grid.str() << " unknowns, "
      << options_.iters << " weighted Jacobi iterations, ω = " << options_.omega << ", " << options_.repeat
      << " timed run(s) after " << options_.warmup << " warm-up(s)\n";
}

void JacobiExperiment::print_cache_note(std::ostream& out, const WorkCounts& work, double cache_bytes,
                                        const std::string& cache_name) const {
  const double working_set = static_cast<double>(options_.grid.nodes()) * work.bytes_min;
  out << "Cache:    one iteration touches " << format_bytes(working_set) << ", the " << cache_name << " holds "
      << format_bytes(cache_bytes)
      << (working_set < cache_bytes ? ": it fits, so rates above the memory limit are cache rates\n"
                                    : ": it does not fit, so every iteration streams from memory\n");
}

void JacobiExperiment::prepare(std::ostream& out) {
  Stopwatch clock;
  system_ = assemble_bidomain(options_.grid);
  x0_.assign(static_cast<std::size_t>(options_.grid.nodes()), 0.0f);
  out << "Assembly: " << std::fixed << std::setprecision(3) << clock.seconds() << " s (Q1 elements, 2x2 Gauss)\n";
  spectrum_ = estimate_jacobi_spectrum(system_.A, 30);
  out << std::setprecision(4) << "Spectrum: λmax(D⁻¹A) ≈ " << spectrum_.lambda_max << " (30 power iterations), ≤ "
      << spectrum_.gershgorin_bound << " (Gershgorin): converges for ω < " << spectrum_.omega_limit()
      << " (guaranteed for ω < " << spectrum_.omega_safe() << ")\n";
  if (options_.omega >= spectrum_.omega_limit())
    out << "Warning:  ω = " << options_.omega << " is above the convergence limit; the iteration will diverge\n";
  if (options_.verify) {
    Progress progress("CPU reference (double precision)");
    clock.restart();
    reference_ = jacobi_reference(system_, x0_, options_.iters, options_.omega,
                                  [&](int done, int total) { progress.update(done, total); });
    reference_seconds_ = clock.seconds();
    out << "Reference: CPU double precision, " << std::setprecision(3) << reference_seconds_
        << " s; every variant is compared with it before its numbers are printed\n";
  } else {
    out << "Reference: skipped (--no-verify): results are NOT checked\n";
  }
  out.unsetf(std::ios::floatfield);
  out << std::setprecision(6);
}

const ResultRow& JacobiExperiment::record(std::ostream& out, ResultRow row, VariantResult result) {
  if (static_cast<std::int64_t>(result.solution.size()) != options_.grid.nodes())
    throw std::logic_error("variant '" + row.variant + "' returned a solution of the wrong size");
  row.grid = options_.grid;
  row.iters = options_.iters;
  row.samples = std::move(result.samples);
  if (options_.verify) {
    row.check = verify_solution(result.solution, reference_, jacobi_tolerance(options_.iters));
  }
  row.residual = relative_residual(system_, std::span<const float>(result.solution));
  out << "  " << std::left << std::setw(20) << row.variant << ' ' << std::right << row.check.summary() << "\n";
  if (!options_.dump_dir.empty()) dumped_solutions_.emplace_back(row.variant, std::move(result.solution));
  rows_.push_back(std::move(row));
  return rows_.back();
}

int JacobiExperiment::finish(std::ostream& out, std::vector<ThenNowRow> then) {
  out << "\nResults (" << options_.grid.str() << ", " << options_.iters << " iterations, median of "
      << options_.repeat << " run(s)):\n";
  print_result_table(out, rows_);
  for (const ResultRow& r : rows_) then.push_back(now_row(r));
  out << "\nThen (paper) and now (this run):\n";
  print_then_now(out, then);

  if (!options_.csv_path.empty()) write_csv(options_.csv_path, rows_);
  if (!options_.json_path.empty()) {
    nlohmann::json j;
    j["chapter"] = {{"id", info_.id}, {"program", info_.program}, {"title", info_.title}, {"paper", info_.paper}};
    j["host"] = host_info();
    j["device"] = device_json_;
    j["options"] = {{"nx", options_.grid.nx}, {"ny", options_.grid.ny}, {"iters", options_.iters},
                    {"omega", options_.omega}, {"repeat", options_.repeat}, {"warmup", options_.warmup},
                    {"verify", options_.verify}};
    j["spectrum"] = {{"lambda_max_estimate", spectrum_.lambda_max},
                     {"gershgorin_bound", spectrum_.gershgorin_bound},
                     {"omega_limit", spectrum_.omega_limit()}};
    j["reference_seconds"] = reference_seconds_;
    j["results"] = rows_;
    j["then_now"] = then;
    std::ofstream file(options_.json_path);
    if (!file || !(file << j.dump(2) << '\n')) throw UsageError("cannot write '" + options_.json_path + "'");
  }
  if (!options_.dump_dir.empty()) write_dump(options_.dump_dir, system_, reference_, dumped_solutions_);

  bool all_pass = true;
  for (const ResultRow& r : rows_) all_pass = all_pass && (!r.check.checked || r.check.pass);
  out << "\n" << (all_pass ? "PASS" : "FAIL") << ": " << rows_.size() << " variant(s) "
      << (options_.verify ? "verified against the CPU double-precision reference" : "NOT verified (--no-verify)")
      << "\n";
  return all_pass ? kExitSuccess : kExitVerificationFailed;
}

}  // namespace gpgpu
