#include "options.hpp"

#include "gpgpu/cuda/device.hpp"

namespace cuda_chapter {

void add_cuda_options(gpgpu::ChapterCli& cli, CudaOptions& o, bool width_sweep) {
  CLI::App& app = cli.app();
  gpgpu::cuda::add_device_option(app, o.device);
  app.add_option("--block", o.launch.block_x, "threads per block (2D kernels: block width); 0 = each variant's default")
      ->check(gpgpu::integer_in_range(0, 1024))
      ->capture_default_str();
  app.add_option("--block-y", o.launch.block_y, "block height of the 2D-block kernel (tiled2d); 0 = default")
      ->check(gpgpu::integer_in_range(0, 1024))
      ->capture_default_str();
  app.add_option("--rows-per-thread", o.launch.rows_per_thread,
                 "rows each thread walks through (multirow, symmetric); 0 = from the occupancy")
      ->check(gpgpu::integer_in_range(0, 4096))
      ->capture_default_str();
  app.add_option("--cpu-sample-iters", o.cpu_sample_iters,
                 "iterations of chapter 01's CPU solvers timed for the speedup columns (0 = skip)")
      ->check(gpgpu::integer_in_range(0, 1000))
      ->capture_default_str();
  app.add_option("--cpu-threads", o.cpu_threads, "threads of the multi-threaded CPU baseline (0 = all)")
      ->check(gpgpu::integer_in_range(0, 4096))
      ->capture_default_str();
  app.add_flag("--no-tune", [&o](std::int64_t) { o.tune = false; },
               "multirow, symmetric: use the default launch configuration instead of timing the candidates "
               "(block 64/128/256 x 1-16 rows per thread, 20 iterations each); also off with --block or --rows-per-thread");
  if (width_sweep)
    app.add_option("--sweep", o.sweep,
                   "run the width sweep at height --ny instead: 'paper' (widths 508 511 512 513 516, Tables 1-2) "
                   "or 'wide' (every width from 480 to 544, and 1024 to 1056 in steps of 4)")
        ->check(CLI::IsMember({"paper", "wide"}));
}

}  // namespace cuda_chapter
