// Google Benchmark for chapter 06: the shared-memory kernel at 256², 1024² and 4096² (cuda_bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "cuda_bench.hpp"
#include "shared_variant.hpp"

namespace {

const bool registered = [] {
  ch03::bench::add_sizes("shared", ch06::shared_variant);
  return true;
}();

}  // namespace
