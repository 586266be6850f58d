// Google Benchmark for chapter 03: the simple kernel at 256², 1024² and 4096² (bench.hpp: CUDA
// events, rates from the work table, time over the floor at the limit for the same mix).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "gpgpu/jacobi/cuda/bench.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

const bool registered = [] {
  jc::bench::add_sizes("simple", jc::simple_variant);
  return true;
}();

}  // namespace
