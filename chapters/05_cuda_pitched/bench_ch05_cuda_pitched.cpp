// Google Benchmark for chapter 05: the pitched kernel at 256², 1024² and 4096² (bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "gpgpu/jacobi/cuda/bench.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

const bool registered = [] {
  jc::bench::add_sizes("pitched", jc::pitched_variant);
  return true;
}();

}  // namespace
