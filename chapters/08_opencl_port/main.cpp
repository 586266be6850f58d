// Chapter 08: the CUDA Jacobi kernels of chapters 03-07 ported to OpenCL, run on any OpenCL device
// (a GPU through its vendor's driver, the CPU through PoCL), verified against the CPU reference,
// judged against the device's bandwidth for the same read:write mix (measured in the same run),
// with OpenCL's start-up cost reported separately. The variants it runs, in order:
//   simple, aligned, local, image  the OpenCL ports (opencl_variants.cpp: the variants and the host code
//                                  that enqueues kernels/jacobi/opencl/08_01_simple.cl, 08_02_local.cl, 08_03_image.cl)
//   cuda_simple, cuda_aligned,     their CUDA originals on the same GPU (cuda_variants.cpp), where this
//   cuda_shared, cuda_texture      build has CUDA and the machine a GPU
// The chapter runs the core's steps itself, to print the start-up table once the device is open and
// its tables after the runs.
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cuda_variants.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/jacobi/opencl_kernels.hpp"
#include "gpgpu/opencl/opener.hpp"
#include "port_report.hpp"
#include "opencl_variants.hpp"
#include "ports.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{
    "08", "ch08_opencl_port", "Porting CUDA to OpenCL: the Jacobi kernels on any OpenCL device",
    "paper 002 (TLM in CUDA and OpenCL), sec. V, Figs. 8-10; paper 003 (CUDA vs OpenCL), secs. 3 and 6, Tabs. 1-3; "
    "paper 000, sec. 6 (the CUDA kernels ported)"};

// Host memory of the chapter besides the run's: the padded start and poisoned vectors and the
// read-back solution (3 floats per node), and chapter 01's solvers for the CPU comparison.
constexpr double kHostBytesPerNode = 3 * 4 + gpgpu::jacobi::cpu::kHostBytesPerNode;

// Compiles the programs of the OpenCL variants that will run (the run-time compilation the
// start-up table shows) and prints the table.
void build_programs(std::ostream& out, gpgpu::ocl::Runtime& runtime,
                    const std::vector<const gpgpu::jacobi::Variant*>& variants, int work_group,
                    ch08::Division division) {
  for (const gpgpu::jacobi::Variant* v : variants)
    if (v->info.backend == gpgpu::Backend::opencl) ch08::variant_program(runtime, ch08::port(v->info.name), division);
  ch08::print_startup_table(out, runtime.startup());
  out << "Division: " << ch08::division_summary(runtime.device(), division) << "\n";
  out << "Launch:   work-groups of " << work_group
      << " work-items (--wg), global sizes rounded up to whole work-groups\n";
}

// After the runs: OpenCL on a CPU beside chapter 01, OpenCL beside the CUDA originals that ran in
// the same process, the papers beside us; and all of it in the JSON.
void report_port(std::ostream& out, gpgpu::jacobi::Chapter& chapter, gpgpu::ocl::Runtime* runtime, int work_group,
                 ch08::Division division) {
  const std::vector<gpgpu::ResultRow>& rows = chapter.experiment().rows();
  nlohmann::json port = {{"work_group_size", work_group}};
  if (runtime != nullptr) {
    port["build_options"] = ch08::build_options(runtime->device(), division);
    port["division"] = ch08::division_summary(runtime->device(), division);
  }
  if (runtime != nullptr && runtime->info().is_cpu) {
    chapter.problem().add_then("CPU");
    const gpgpu::jacobi::CpuBaseline baseline = gpgpu::jacobi::cpu::measure_cpu_baseline(
        chapter.problem().system(), std::clamp(chapter.problem().options().iters, 5, 50), gpgpu::default_cpu_threads());
    ch08::print_cpu_comparison(out, rows, baseline);
    port["ch01_baseline"] = ch08::baseline_json(baseline);
  }
  const std::vector<ch08::CudaComparison> pairs = ch08::cuda_comparison(rows);
  ch08::print_cuda_comparison(out, pairs);
  port["cuda_comparison"] = pairs;
  if (runtime != nullptr)
    port["papers"] = ch08::print_papers_beside_us(out, runtime->startup(), chapter.problem().options().grid, pairs);
  chapter.experiment().add_json("opencl_port", port);
}

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::jacobi::ChapterSettings settings;
    settings.host_bytes_per_node = kHostBytesPerNode;
    gpgpu::jacobi::Chapter chapter(kInfo, settings);
    int work_group = 64;
    ch08::Division division = ch08::Division::correctly_rounded;
    chapter.add(ch08::opencl_variants(work_group, division));
    chapter.add(ch08::cuda_variants());
    CLI::Option_group& launch = chapter.cli().group("OpenCL launch");
    launch.add_option("--wg", work_group, "work-group size (the paper's CUDA block size is 64)")
        ->check(gpgpu::integer_in_range(1, 1024))
        ->capture_default_str();
    launch
        .add_option("--cl-division", division,
                    "single-precision division in the kernels: 'correct' (-cl-fp32-correctly-rounded-divide-sqrt, "
                    "as CUDA divides, where the device supports it) or 'default' (OpenCL C's 2.5 ulp)")
        ->transform(CLI::CheckedTransformer(std::map<std::string, ch08::Division>{
            {"correct", ch08::Division::correctly_rounded}, {"default", ch08::Division::opencl_default}}))
        ->default_str("correct");
    chapter.parse(argc, argv);

    std::ostream& out = std::cout;
    const auto variants = chapter.open(out);  // header, device block; --list has exited in parse()
    gpgpu::Session* session = chapter.experiment().session(gpgpu::Backend::opencl);
    gpgpu::ocl::Runtime* runtime = session != nullptr ? &gpgpu::ocl::runtime_of(*session) : nullptr;
    if (runtime != nullptr) build_programs(out, *runtime, variants, work_group, division);
    chapter.measure_limits(out, variants);
    chapter.prepare(out, variants);
    out << "Verification:\n";
    for (const gpgpu::jacobi::Variant* v : variants) chapter.run_variant(out, *v);
    report_port(out, chapter, runtime, work_group, division);
    return chapter.finish(out);
  });
}
