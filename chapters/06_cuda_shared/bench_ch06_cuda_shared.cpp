// Google Benchmark for chapter 06: the two shared-memory kernels at 256², 1024² and 4096² (bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "gpgpu/jacobi/cuda/bench.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

const bool registered = [] {
  jc::bench::add_sizes("shared", jc::shared_variant);
  jc::bench::add_sizes("shared_paper", jc::shared_paper_variant);
  return true;
}();

}  // namespace
