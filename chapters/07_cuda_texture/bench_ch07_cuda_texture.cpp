// Google Benchmark for chapter 07: the texture kernel at 256², 1024² and 4096² (cuda_bench.hpp).
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include "cuda_bench.hpp"
#include "texture_variant.hpp"

namespace {

const bool registered = [] {
  ch03::bench::add_sizes("texture", ch07::texture_variant);
  return true;
}();

}  // namespace
