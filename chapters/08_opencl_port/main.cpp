// Chapter 08: the CUDA Jacobi kernels of chapters 03-07 ported to OpenCL, run on any OpenCL device
// (a GPU through its vendor's driver, the CPU through PoCL), verified against the CPU reference,
// measured against the device's copy bandwidth, with OpenCL's start-up cost reported separately.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpu_jacobi.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/opencl/bandwidth.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "gpgpu/paper000.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/work_counts.hpp"
#include "opencl_jacobi.hpp"
#include "port_report.hpp"
#include "ported_variants.hpp"
#ifdef GPGPU_CH08_COMPARE_CUDA
#include "cuda_twin.hpp"
#endif

namespace {

const gpgpu::ChapterInfo kInfo{
    "08", "ch08_opencl_port", "Porting CUDA to OpenCL: the Jacobi kernels on any OpenCL device",
    "paper 002 (TLM in CUDA and OpenCL), sec. V, Figs. 8-10; paper 003 (CUDA vs OpenCL), secs. 3 and 6, Tabs. 1-3; "
    "paper 000, sec. 6 (the CUDA kernels ported)"};

// Host memory of the chapter besides the experiment's: the padded start and poisoned vectors and
// the read-back solution (3 floats per node), and chapter 01's solvers for the CPU comparison.
constexpr double kHostBytesPerNode = 3 * 4 + ch01::kHostBytesPerNode;

// The variants this device can run; a limitation of one the user named is a usage error, one
// that came with "all" is reported and skipped.
std::vector<const ch08::Variant*> runnable_variants(const gpgpu::ChapterCli& cli, const gpgpu::ocl::Runtime& runtime,
                                                    nlohmann::json& skipped) {
  std::vector<const ch08::Variant*> out;
  for (const std::string& name : cli.options().variants) {
    const ch08::Variant& v = ch08::variant(name);
    if (const auto why = ch08::device_limitation(v, cli.options().grid, runtime)) {
      if (cli.given("--variant")) throw gpgpu::UsageError("--variant " + name + ": " + *why);
      std::cout << "Skipped:  " << name << ": " << *why << "\n";
      skipped[name] = *why;
      continue;
    }
    out.push_back(&v);
  }
  return out;
}

// Variants run one after another and free their buffers, so the largest one must fit.
void require_device_fit(const std::vector<const ch08::Variant*>& variants, const gpgpu::ocl::Runtime& runtime,
                        const gpgpu::Grid& grid, int work_group) {
  ch08::DeviceBytes need;
  for (const ch08::Variant* v : variants) {
    const ch08::DeviceBytes b = ch08::device_bytes(*v, grid, runtime.info());
    need.total = std::max(need.total, b.total);
    need.largest = std::max(need.largest, b.largest);
  }
  gpgpu::ocl::require_device_memory(runtime.info(), need.total, need.largest, "grid " + grid.str());
  if (static_cast<std::size_t>(work_group) > runtime.info().max_work_group_size)
    throw gpgpu::UsageError("--wg " + std::to_string(work_group) + ": " + runtime.info().name +
                            " allows work-groups of at most " + std::to_string(runtime.info().max_work_group_size));
}

// One variant through the warm-up and timed runs; only the iterations are timed, on the device.
gpgpu::VariantResult run_opencl(gpgpu::ocl::Runtime& runtime, ch08::ProgramCache& programs, const ch08::Variant& v,
                                const gpgpu::JacobiExperiment& exp, int work_group, std::string& launch) {
  const gpgpu::CommonOptions& opt = exp.options();
  ch08::OpenClJacobi solver(runtime, programs.program(v), v, exp.system(), static_cast<std::size_t>(work_group));
  gpgpu::VariantResult result;
  result.samples = gpgpu::repeat_runs(opt, [&] {
    solver.reset(exp.initial_guess());
    return solver.iterate(opt.iters, static_cast<float>(opt.omega));
  });
  result.solution = solver.solution();
  launch = solver.launch_text();
  return result;
}  // the device buffers are released here, before the next variant (or the CUDA twin) allocates

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    const auto names = ch08::variant_names();
    gpgpu::ChapterCli cli(kInfo.program, "Chapter 08: " + kInfo.title, {names.begin(), names.end()});
    gpgpu::ocl::DeviceOptions device_options;
    gpgpu::ocl::add_device_options(cli.app(), device_options);
    int work_group = 64;
    cli.app()
        .add_option("--wg", work_group, "work-group size (the paper's CUDA block size is 64)")
        ->check(gpgpu::integer_in_range(1, 1024))
        ->capture_default_str();
#ifdef GPGPU_CH08_COMPARE_CUDA
    bool compare_cuda = false;
    int cuda_device = 0;
    double cuda_open_s = 0;
    std::string cuda_name;
    CLI::Option* compare_flag = cli.app().add_flag(
        "--compare-cuda", compare_cuda, "also run each kernel's CUDA original (kernels/cuda/) on the same GPU, same run");
    cli.app()
        .add_option("--cuda-device", cuda_device, "CUDA device of --compare-cuda (the same GPU as the OpenCL device)")
        ->check(gpgpu::integer_in_range(0, 255))
        ->needs(compare_flag)
        ->capture_default_str();
#endif
    const gpgpu::CommonOptions& opt = cli.parse(argc, argv);
    if (device_options.list) {
      gpgpu::ocl::list_devices(std::cout);
      return static_cast<int>(gpgpu::kExitSuccess);
    }

    gpgpu::JacobiExperiment exp(kInfo, opt, kHostBytesPerNode);
    exp.print_header(std::cout);
    gpgpu::ocl::Runtime runtime(device_options);  // discovery, context, queue: timed
    const gpgpu::ocl::DeviceInfo& device = runtime.info();
    gpgpu::ocl::print_device_info(std::cout, device);

#ifdef GPGPU_CH08_COMPARE_CUDA
    if (compare_cuda) {
      if (!device.is_gpu) throw gpgpu::UsageError("--compare-cuda needs an OpenCL GPU device (try --cl-type gpu)");
      gpgpu::Stopwatch clock;  // CUDA's start-up beside OpenCL's: the runtime creates its context here
      cuda_name = ch08::open_cuda_device(cuda_device);
      cuda_open_s = clock.seconds();
      std::cout << "CUDA:     device " << cuda_device << ", " << cuda_name
                << (cuda_name == device.name ? " (the same GPU)" : " -- NOT the OpenCL device: compare with care")
                << ", opened in " << cuda_open_s << " s\n";
    }
#endif
    nlohmann::json skipped = nlohmann::json::object();
    const auto variants = runnable_variants(cli, runtime, skipped);
    require_device_fit(variants, runtime, opt.grid, work_group);

    ch08::ProgramCache programs(runtime);
    for (const ch08::Variant* v : variants) programs.program(*v);  // run-time compilation, timed
    const gpgpu::ocl::CopyBandwidth copy = gpgpu::ocl::measure_copy_bandwidth(runtime);
    ch08::print_startup_table(std::cout, runtime.startup());
    const gpgpu::Limit limit{copy.limit_name(), copy.best_gbs()};
    std::cout << "Limit:    " << limit.name << ": " << limit.gbs << " GB/s (copy command " << copy.command_gbs
              << " GB/s, copy kernel " << copy.kernel_gbs << " GB/s; read + write, best of 5, profiling events)\n"
              << "Launch:   work-groups of " << work_group << " work-items (--wg), global sizes rounded up to whole work-groups\n";
    const gpgpu::WorkCounts& work = gpgpu::work_counts("jacobi9");
    exp.print_cache_note(std::cout, work, static_cast<double>(device.global_cache_bytes),
                         device.is_gpu ? "device's global-memory cache (L2)" : "device's global-memory cache");
    exp.prepare(std::cout);

    std::vector<ch08::TwinTiming> twins;  // --compare-cuda, in a build with the CUDA kernels
    std::cout << "Verification:\n";
    for (const ch08::Variant* v : variants) {
      std::string launch;
      gpgpu::VariantResult result = run_opencl(runtime, programs, *v, exp, work_group, launch);
      gpgpu::ResultRow row;
      row.variant = std::string(v->name);
      row.description = std::string(v->description) + "; " + launch + " (port of kernels/cuda/" +
                        std::string(v->cuda_file) + ")";
      row.device = device.label();
      row.timer = "OpenCL profiling events";
      row.work = work;
      row.limit = limit;
      const double opencl_ms = exp.record(std::cout, row, std::move(result)).ms_per_iter();
#ifdef GPGPU_CH08_COMPARE_CUDA
      if (compare_cuda) {  // the CUDA original on the same GPU, verified like every variant
        ch08::CudaTwinRun twin = ch08::run_cuda_twin(*v, exp, work_group);
        row.variant = "cuda_" + std::string(v->cuda_variant);
        row.description = "CUDA original of " + std::string(v->name) + "; " + twin.launch + " (kernels/cuda/" +
                          std::string(v->cuda_file) + ")";
        row.device = cuda_name + " (CUDA)";
        row.timer = "CUDA events";
        const double cuda_ms = exp.record(std::cout, row, std::move(twin.result)).ms_per_iter();
        twins.push_back({std::string(v->name), "kernels/cuda/" + std::string(v->cuda_file), opencl_ms, cuda_ms});
      }
#else
      (void)opencl_ms;
#endif
    }

    std::vector<gpgpu::ThenNowRow> then = gpgpu::paper000::then_rows("CUDA Shared");
    for (auto& r : gpgpu::paper000::then_rows("CUDA Texture")) then.push_back(std::move(r));
    nlohmann::json device_json = ch08::device_json(device, runtime.startup(), copy, work_group, skipped, twins);
#ifdef GPGPU_CH08_COMPARE_CUDA
    if (compare_cuda) device_json["startup"]["cuda_device_open_s"] = cuda_open_s;
#endif
    if (device.is_cpu) {  // OpenCL on the CPU against the C++ of chapter 01, same system
      for (auto& r : gpgpu::paper000::then_rows("CPU")) then.push_back(std::move(r));
      const ch01::CpuBaseline baseline =
          ch01::measure_cpu_baseline(exp.system(), std::clamp(opt.iters, 5, 50), ch01::default_threads());
      ch08::print_cpu_comparison(std::cout, exp.rows(), baseline);
      device_json["ch01_baseline"] = {{"threads", baseline.threads},
                                      {"single_thread_s_per_iter", baseline.single_thread_s_per_iter},
                                      {"multi_thread_s_per_iter", baseline.multi_thread_s_per_iter}};
    }
    ch08::print_cuda_comparison(std::cout, twins);
    ch08::print_papers_beside_us(std::cout, runtime.startup(), opt.grid, twins);
    exp.set_device_json(device_json);
    return exp.finish(std::cout, std::move(then));
  });
}
