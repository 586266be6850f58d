// Google Benchmark for chapter 05: the pitched kernel at 256², 1024² and 4096² (cuda_bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "cuda_bench.hpp"
#include "pitched_variant.hpp"

namespace {

const bool registered = [] {
  ch03::bench::add_sizes("pitched", ch05::pitched_variant);
  return true;
}();

}  // namespace
