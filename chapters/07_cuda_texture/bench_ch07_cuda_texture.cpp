// Google Benchmark for chapter 07: the texture kernel at 256², 1024² and 4096² (bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "gpgpu/jacobi/cuda/bench.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

const bool registered = [] {
  jc::bench::add_sizes("texture", jc::texture_variant);
  return true;
}();

}  // namespace
