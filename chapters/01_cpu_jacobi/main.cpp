// Chapter 01: weighted Jacobi for the bidomain FEM system on the CPU, in the paper's two storage
// layouts (separate diagonals, interleaved rows) and on every core with OpenMP, verified against
// the double-precision reference and measured against the host's copy bandwidth.
#include <iostream>
#include <string>

#include "cpu_jacobi.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/host_bandwidth.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/paper000.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/work_counts.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "01", "ch01_cpu_jacobi", "CPU weighted Jacobi: separate diagonals and interleaved rows, serial and OpenMP",
    "paper 000 (weighted Jacobi for the bidomain equations), sections 2-4, Tables 3, 4 and 6"};

// Runs one solver through the warm-up and timed runs; only the iterations are timed.
template <typename Solver>
gpgpu::VariantResult run(Solver& solver, const gpgpu::JacobiExperiment& exp, const std::string& name) {
  const gpgpu::CommonOptions& opt = exp.options();
  gpgpu::VariantResult result;
  result.samples = gpgpu::repeat_runs(opt, [&] {
    solver.reset(exp.initial_guess());
    gpgpu::Progress progress(name);
    gpgpu::Stopwatch clock;
    solver.iterate(opt.iters, static_cast<float>(opt.omega),
                   [&](int done, int total) { progress.update(done, total); });
    return clock.seconds();
  });
  result.solution = solver.solution();
  return result;
}

std::string threads_label(int threads) {
  return "CPU, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::ChapterCli cli(kInfo.program, "Chapter 01: " + kInfo.title, {"separate", "interleaved", "separate_openmp", "interleaved_openmp"});
    int threads = ch01::default_threads();
    cli.app().add_option("--threads", threads, "OpenMP threads of the *_openmp variants")
        ->check(gpgpu::integer_in_range(1, 4096))
        ->capture_default_str();
    const gpgpu::CommonOptions& opt = cli.parse(argc, argv);

    gpgpu::JacobiExperiment exp(kInfo, opt, ch01::kHostBytesPerNode);
    exp.print_header(std::cout);
    // The limits: host copy bandwidth with one thread (for the serial variants) and with the
    // OpenMP variants' thread count, measured now, on this machine.
    const gpgpu::HostBandwidth one = gpgpu::measure_host_copy_bandwidth(1);
    const gpgpu::HostBandwidth many = gpgpu::measure_host_copy_bandwidth(threads);
    const gpgpu::Limit serial_limit{"host copy, 1 thread", one.gbs};
    const gpgpu::Limit parallel_limit{"host copy, " + std::to_string(threads) + " threads", many.gbs};
    std::cout << "Limits:   " << serial_limit.name << " " << one.gbs << " GB/s, " << parallel_limit.name << " "
              << many.gbs << " GB/s (STREAM-style copy of 2 x " << gpgpu::format_bytes(static_cast<double>(one.bytes_per_array))
              << ", read + write)\n";
    exp.set_device_json({{"kind", "cpu"}, {"threads_openmp_variant", threads},
                         {"host_copy_gbs_1_thread", one.gbs}, {"host_copy_gbs_n_threads", many.gbs}});
    const gpgpu::WorkCounts& work = gpgpu::work_counts("jacobi9");
    exp.print_cache_note(std::cout, work, static_cast<double>(gpgpu::last_level_cache_bytes()), "last-level cache");
    exp.prepare(std::cout);

    std::cout << "Verification:\n";
    for (const std::string& name : opt.variants) {
      const bool parallel = name.ends_with("_openmp");
      const int t = parallel ? threads : 1;
      gpgpu::ResultRow row;
      row.variant = name;
      row.device = threads_label(t);
      row.timer = "steady_clock";
      row.work = work;
      row.limit = parallel ? parallel_limit : serial_limit;
      if (name.starts_with("separate")) {
        ch01::SeparateDiagonalsSolver solver(exp.system(), t);
        row.description = "nine separate diagonal arrays (paper Fig. 2), " + row.device;
        exp.record(std::cout, row, run(solver, exp, name));
      } else {
        ch01::InterleavedRowsSolver solver(exp.system(), t);
        row.description = "interleaved rows (paper Fig. 4), " + row.device;
        exp.record(std::cout, row, run(solver, exp, name));
      }
    }
    return exp.finish(std::cout, gpgpu::paper000::then_rows("CPU"));
  });
}
