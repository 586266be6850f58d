// Google Benchmark for chapter 03: the simple kernel at 256², 1024² and 4096² (cuda_bench.hpp: CUDA
// events, rates from the work table, time over the floor at the limit for the same mix).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "cuda_bench.hpp"
#include "simple_variant.hpp"

namespace {

const bool registered = [] {
  ch03::bench::add_sizes("simple", ch03::simple_variant);
  return true;
}();

}  // namespace
