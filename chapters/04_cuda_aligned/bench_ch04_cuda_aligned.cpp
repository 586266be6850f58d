// Google Benchmark for chapter 04: both aligned variants at 256², 1024² and 4096² (bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/jacobi/cuda/bench.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

const bool registered = [] {
  jc::bench::add_sizes("aligned", jc::aligned_variant);
  jc::bench::add_sizes("aligned32", jc::aligned32_variant);
  return true;
}();

}  // namespace
