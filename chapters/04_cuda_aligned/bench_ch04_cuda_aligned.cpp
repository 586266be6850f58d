// Google Benchmark for chapter 04: both aligned variants at 256², 1024² and 4096² (cuda_bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "aligned_variants.hpp"
#include "cuda_bench.hpp"

namespace {

const bool registered = [] {
  ch03::bench::add_sizes("aligned", ch04::aligned_variant);
  ch03::bench::add_sizes("aligned32", ch04::aligned32_variant);
  return true;
}();

}  // namespace
