// Google Benchmark for chapter 07c: the one-sweep symmetric kernel and the temporal-blocking
// variants overlapped, overlapped_unrolled, wavefront, overlapped_persistent and overlapped_scaled (s = 4, each
// kernel's default tile, untuned) at 256², 1024² and 4096² (bench.hpp), the persistent kernel only
// where its coefficients fit on chip, and the overlapped and wavefront kernels at 4096² for
// s = 1, 2, 3, 4, 6, 8.
// JSON: --benchmark_out=FILE --benchmark_out_format=json
#include <string>

#include "gpgpu/jacobi/cuda/bench.hpp"
#include "cuda_variants.hpp"
#include "gpgpu/jacobi/cuda/row_walking_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

namespace {

// The options each registered variant reads when its solver is made: one per s, alive for the program.
ch07c::TemporalOptions g_options[9];

// The variant `Make` at s = S.
template <gpgpu::jacobi::Variant (*Make)(const ch07c::TemporalOptions&), int S>
gpgpu::jacobi::Variant at_s(const jc::LaunchOptions&) {
  g_options[S].sweeps_per_trip = S;
  return Make(g_options[S]);
}
template <int S>
constexpr auto* overlapped = &at_s<ch07c::overlapped_variant, S>;
template <int S>
constexpr auto* wavefront = &at_s<ch07c::wavefront_variant, S>;
gpgpu::jacobi::Variant persistent(const jc::LaunchOptions&) { return ch07c::persistent_variant(); }

const bool registered = [] {
  jc::bench::add_sizes("symmetric", jc::symmetric_variant);
  jc::bench::add_sizes("overlapped", overlapped<4>);
  jc::bench::add_sizes("wavefront", wavefront<4>);
  jc::bench::add_sizes("overlapped_unrolled", &at_s<ch07c::overlapped_unrolled_variant, 4>);
  jc::bench::add_sizes("overlapped_persistent", &at_s<ch07c::overlapped_persistent_variant, 4>);
  jc::bench::add_sizes("overlapped_scaled", &at_s<ch07c::overlapped_scaled_variant, 4>);
  jc::bench::add("persistent/256/", 256, persistent, {});
  jc::bench::add("persistent/1024/", 1024, persistent, {});
  const struct {
    int s;
    gpgpu::jacobi::Variant (*overlapped)(const jc::LaunchOptions&);
    gpgpu::jacobi::Variant (*wavefront)(const jc::LaunchOptions&);
  } by_s[] = {{1, overlapped<1>, wavefront<1>}, {2, overlapped<2>, wavefront<2>}, {3, overlapped<3>, wavefront<3>},
              {4, overlapped<4>, wavefront<4>}, {6, overlapped<6>, wavefront<6>}, {8, overlapped<8>, wavefront<8>}};
  for (const auto& b : by_s) {
    jc::bench::add("overlapped_s/4096/s:" + std::to_string(b.s), 4096, b.overlapped, {});
    jc::bench::add("wavefront_s/4096/s:" + std::to_string(b.s), 4096, b.wavefront, {});
  }
  return true;
}();

}  // namespace
