#include "cuda_chapter.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cpu_jacobi.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda_jacobi.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/work_counts.hpp"
#include "gpgpu/report.hpp"
#include "gpu_context.hpp"
#include "options.hpp"
#include "paper_figures.hpp"
#include "sweep.hpp"

namespace cuda_chapter {
namespace {

namespace cj = gpgpu::cuda_jacobi;

// Host bytes per node besides the experiment's own: the padded upload copy, the downloaded
// solution, and chapter 01's CPU solvers for the speedup columns.
constexpr double kHostBytesPerNode = 2 * 4 + ch01::kHostBytesPerNode + 2 * 4;

// Iterations per candidate launch configuration when a variant is tuned.
constexpr int kTuneIters = 20;

const auto fmt = gpgpu::format_cell;

// Every variant fits (device memory, texture width) before the long CPU reference starts.
void check_fits(const std::vector<std::string>& variants, const gpgpu::Grid& grid) {
  for (const std::string& v : variants) cj::check_limits(v, grid);
}

// Time per iteration against the floor (minimum bytes at the measured copy bandwidth), and the
// speedups over chapter 01's CPU solver on the same system.
void print_speedups(std::ostream& out, const std::vector<gpgpu::ResultRow>& rows, const ch01::CpuBaseline* cpu,
                    nlohmann::json& json) {
  std::vector<std::vector<std::string>> t{{"variant", "ms/iter", "floor ms/iter", "time/floor", "x CPU 1 thread",
                                           cpu ? "x CPU " + std::to_string(cpu->threads) + " threads" : "x CPU n threads",
                                           "paper: GTX 280 x Phenom 1 thread"}};
  for (const gpgpu::ResultRow& r : rows) {
    const cj::VariantInfo& info = cj::variant_info(r.variant);
    const double s = r.seconds() / r.iters;
    const double floor = gpgpu::floor_seconds_per_iter(r.work, static_cast<double>(r.grid.nodes()), r.limit.gbs);
    const auto paper = paper_speedup(info.paper_name);
    t.push_back({r.variant, fmt("%.4f", 1e3 * s), fmt("%.4f", 1e3 * floor), fmt("%.3f", s / floor),
                 cpu ? fmt("%.1f", cpu->single_thread_s_per_iter / s) : "-",
                 cpu ? fmt("%.1f", cpu->multi_thread_s_per_iter / s) : "-", paper ? fmt("%.2f", *paper) : "-"});
    json[r.variant] = {{"ms_per_iter", 1e3 * s}, {"floor_ms_per_iter", 1e3 * floor}, {"time_over_floor", s / floor}};
    if (cpu) {
      json[r.variant]["speedup_cpu_1_thread"] = cpu->single_thread_s_per_iter / s;
      json[r.variant]["speedup_cpu_n_threads"] = cpu->multi_thread_s_per_iter / s;
    }
  }
  out << "\nAgainst the floor and the CPU:\n";
  gpgpu::print_text_table(out, t, 1);
  out << "  floor = minimum bytes per iteration (work_counts.hpp) / copy bandwidth measured above: no kernel that\n"
         "  moves those bytes through DRAM can be faster. CPU = chapter 01's faster layout on this host, same system.\n";
}

int run_table(const gpgpu::CommonOptions& opt, const CudaOptions& cuda,
              gpgpu::JacobiExperiment& exp, const GpuContext& gpu) {
  exp.prepare(std::cout);
  // 1024² with nine diagonals (48 MB) nearly fits the H100's 50 MB L2; 4096² (805 MB) does not.
  std::vector<std::string_view> works;
  for (const std::string& name : opt.variants) {
    const std::string_view w = cj::variant_info(name).work;
    if (std::find(works.begin(), works.end(), w) == works.end()) works.push_back(w);
  }
  for (std::string_view w : works)
    exp.print_cache_note(std::cout, gpgpu::work_counts(w), static_cast<double>(gpu.device.l2_bytes), "L2");
  nlohmann::json device = gpu.json();
  ch01::CpuBaseline cpu;
  const bool with_cpu = cuda.cpu_sample_iters > 0;
  if (with_cpu) {
    cpu = ch01::measure_cpu_baseline(exp.system(), cuda.cpu_sample_iters,
                                     cuda.cpu_threads > 0 ? cuda.cpu_threads : ch01::default_threads());
    std::cout << "CPU:      chapter 01 on this host, " << cuda.cpu_sample_iters << " sampled iterations: "
              << fmt("%.3f", 1e3 * cpu.single_thread_s_per_iter) << " ms/iter on 1 thread, "
              << fmt("%.3f", 1e3 * cpu.multi_thread_s_per_iter) << " ms/iter on " << cpu.threads << " threads\n";
    device["cpu_baseline"] = {{"sample_iters", cuda.cpu_sample_iters},
                              {"single_thread_ms_per_iter", 1e3 * cpu.single_thread_s_per_iter},
                              {"multi_thread_ms_per_iter", 1e3 * cpu.multi_thread_s_per_iter},
                              {"threads", cpu.threads}};
  }
  std::cout << "Verification (each kernel's file, launch configuration, then its check):\n";
  std::vector<gpgpu::ThenNowRow> then;
  for (const std::string& name : opt.variants) {
    auto solver = cj::make_solver(name, exp.system(), cuda.launch);
    const cj::VariantInfo& info = solver->info();
    // Autotuning, reported: only where the user fixed nothing; the chosen configuration is printed.
    if (cuda.tune && cuda.launch.block_x == 0 && cuda.launch.rows_per_thread == 0) {
      const std::string tuned = solver->tune(kTuneIters, static_cast<float>(opt.omega));
      if (!tuned.empty()) {
        std::cout << "  " << name << " tuned: " << tuned << "\n";
        device["tuning"][name] = tuned;
      }
    }
    std::cout << "  " << name << ": " << info.kernel_file << "; " << solver->launch_text() << "\n";
    device["launch"][name] = solver->launch_text();
    gpgpu::ResultRow row;
    row.variant = name;
    row.description = std::string(info.description);
    row.device = gpu.device.name;
    row.timer = "CUDA events";
    row.work = gpgpu::work_counts(info.work);
    row.limit = gpu.limit;
    exp.record(std::cout, row, cj::run_experiment(*solver, exp));
    for (auto& r : then_rows(info.paper_name)) then.push_back(std::move(r));
  }
  print_speedups(std::cout, exp.rows(), with_cpu ? &cpu : nullptr, device["floor_and_speedup"]);
  exp.set_device_json(std::move(device));
  return exp.finish(std::cout, std::move(then));
}

}  // namespace

int run(int argc, char** argv, const ChapterSpec& spec) {
  gpgpu::ChapterCli cli(spec.info.program, "Chapter " + spec.info.id + ": " + spec.info.title, spec.variants);
  CudaOptions cuda;
  add_cuda_options(cli, cuda, spec.width_sweep);
  const gpgpu::CommonOptions& opt = cli.parse(argc, argv);

  gpgpu::JacobiExperiment exp(spec.info, opt, kHostBytesPerNode);  // refuses what the host cannot hold
  const gpgpu::cuda::DeviceInfo device = gpgpu::cuda::open_device(cuda.device);  // no GPU: exit 77
  exp.print_header(std::cout);
  gpgpu::cuda::print_device_info(std::cout, device);
  if (cuda.sweep.empty()) check_fits(opt.variants, opt.grid);
  const GpuContext gpu = measure_limit(std::cout, device);
  if (!cuda.sweep.empty()) return run_sweep(std::cout, spec, opt, cuda, gpu);
  return run_table(opt, cuda, exp, gpu);
}

}  // namespace cuda_chapter
