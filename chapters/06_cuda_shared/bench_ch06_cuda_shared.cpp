// Google Benchmark for chapter 06: the two shared-memory kernels at 256², 1024² and 4096² (cuda_bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "cuda_bench.hpp"
#include "shared_variant.hpp"

namespace {

const bool registered = [] {
  ch03::bench::add_sizes("shared", ch06::shared_variant);
  ch03::bench::add_sizes("shared_paper", ch06::shared_paper_variant);
  return true;
}();

}  // namespace
