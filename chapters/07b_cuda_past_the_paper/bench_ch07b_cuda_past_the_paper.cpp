// Google Benchmark for chapter 07b: the six kernels past the paper at 256², 1024² and 4096²
// (bench.hpp), and the launch candidates of multirow, symmetric, symmetric_prefetch and symmetric_ring
// at 4096²:
// blocks of 64, 128 and 256 threads x 1 to 32 rows per thread.
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include <string>

#include "gpgpu/jacobi/cuda/bench.hpp"
#include "cuda_variants.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

struct Tunable {
  const char* name;
  gpgpu::jacobi::Variant (*factory)(const jc::LaunchOptions&);
};

const bool registered = [] {
  jc::bench::add_sizes("readonly", ch07b::readonly_variant);
  jc::bench::add_sizes("tiled2d", ch07b::tiled2d_variant);
  jc::bench::add_sizes("multirow", ch07b::multirow_variant);
  jc::bench::add_sizes("symmetric", ch07b::symmetric_variant);
  jc::bench::add_sizes("symmetric_prefetch", ch07b::symmetric_prefetch_variant);
  jc::bench::add_sizes("symmetric_ring", ch07b::symmetric_ring_variant);
  for (const Tunable& t : {Tunable{"multirow", ch07b::multirow_variant}, Tunable{"symmetric", ch07b::symmetric_variant},
                           Tunable{"symmetric_prefetch", ch07b::symmetric_prefetch_variant},
                           Tunable{"symmetric_ring", ch07b::symmetric_ring_variant}})
    for (int rows : {1, 2, 4, 8, 16, 32})
      for (int block : {64, 128, 256}) {
        jc::LaunchOptions launch;
        launch.block = block;
        launch.rows_per_thread = rows;
        jc::bench::add(std::string(t.name) + "_tune/4096/rows:" + std::to_string(rows) + "/block:" + std::to_string(block),
                         4096, t.factory, launch);
      }
  return true;
}();

}  // namespace
