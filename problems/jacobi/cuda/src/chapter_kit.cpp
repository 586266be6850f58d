#include "gpgpu/jacobi/cuda/chapter_kit.hpp"

#include <utility>

#include <CLI/CLI.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

// Host bytes per node the CUDA solvers add to the run's own: the padded upload copy, the downloaded
// solution, and chapter 01's CPU solvers for the speedup columns.
constexpr double kHostBytesPerNode = 2 * 4 + cpu::kHostBytesPerNode + 2 * 4;

}  // namespace

void add_options(gpgpu::Cli& cli, CudaOptions& o) {
  CLI::Option_group& g = cli.group("CUDA launch");
  g.add_option("--block", o.launch.block, "threads per block (2D kernels: block width); 0 = each variant's default")
      ->check(gpgpu::integer_in_range(0, 1024))
      ->capture_default_str();
  g.add_option("--block-y", o.launch.block_y, "block height of the 2D-block kernel (tiled2d); 0 = default")
      ->check(gpgpu::integer_in_range(0, 1024))
      ->capture_default_str();
  g.add_option("--rows-per-thread", o.launch.rows_per_thread,
               "rows each thread walks through (multirow, symmetric); 0 = from the occupancy")
      ->check(gpgpu::integer_in_range(0, 4096))
      ->capture_default_str();
  g.add_flag("--no-tune", [&o](std::int64_t) { o.launch.tune = false; },
             "multirow, symmetric: use the default launch configuration instead of timing the candidates "
             "(block 64/128/256 x 1-16 rows per thread, 20 iterations each); also off with --block or "
             "--rows-per-thread");
  cli.group("CPU comparison")
      .add_option("--cpu-threads", o.cpu_threads, "threads of the multi-threaded CPU baseline and the CPU reference (0 = all)")
      ->check(gpgpu::cpu_thread_count(0))
      ->capture_default_str();
  cli.on_parsed([&o](const gpgpu::Cli&) {
    if (o.cpu_threads > 0) gpgpu::use_cpu_threads(o.cpu_threads);
  });
}

ChapterSettings chapter_settings(const CudaOptions& options, bool width_sweep) {
  ChapterSettings s;
  s.host_bytes_per_node = kHostBytesPerNode;
  s.cpu_baseline = [&options](const LinearSystem& sys, int sample_iters) {
    return cpu::measure_cpu_baseline(sys, sample_iters,
                                      options.cpu_threads > 0 ? options.cpu_threads : gpgpu::default_cpu_threads());
  };
  s.width_sweep = width_sweep;
  return s;
}

Variant cuda_variant(std::string name, std::string description, std::string kernel_file,
                                        std::string paper_name, std::string work) {
  Variant v;
  v.info = {std::move(name), Backend::cuda, std::move(description), std::move(kernel_file), std::move(paper_name),
            "CUDA events"};
  v.opener = gpgpu::cuda::opener;
  v.work = std::move(work);
  return v;
}

std::function<void(const Grid&, gpgpu::Session&)> fits_device_memory(
    std::string variant, std::function<double(const Grid&)> device_bytes) {
  return [variant = std::move(variant), device_bytes = std::move(device_bytes)](const Grid& grid,
                                                                                 gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(device_bytes(grid), "variant " + variant + " on grid " + grid.str());
  };
}

int run_chapter(const ChapterInfo& info, int argc, char** argv, std::initializer_list<VariantFactory> variants,
                bool width_sweep) {
  return run_main(info.program, [&] {
    CudaOptions options;
    Chapter chapter(info, chapter_settings(options, width_sweep));
    add_options(chapter.cli(), options);
    for (VariantFactory make : variants) chapter.add(make(options.launch));
    return chapter.run(argc, argv);
  });
}

void check_block(int block_x, int block_y) {
  if (block_x < 1 || block_y < 1 || static_cast<long long>(block_x) * block_y > 1024)
    throw gpgpu::UsageError("a block of " + std::to_string(block_x) + " x " + std::to_string(block_y) +
                            " threads: CUDA allows 1 to 1024 threads per block (--block, --block-y)");
}

}  // namespace gpgpu::jacobi::cuda
