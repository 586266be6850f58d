#include "gpgpu/blas/routines.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "gpgpu/blas/bound.hpp"
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/blas/work.hpp"
#include "gpgpu/harness/random.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::blas {
namespace {

constexpr double kFloat = 4;  // bytes per element
const double kU32 = std::ldexp(1.0, -24), kU64 = std::ldexp(1.0, -53);

std::vector<float> random_floats(std::int64_t n, unsigned seed) { return harness::random_values<float>(n, seed, -100.0f, 100.0f); }

// y = A x (transposed: y = Aᵀ x) in double, with |A||x|. Rows in parallel for A x; for Aᵀ x each
// thread owns a block of columns of y and walks A row by row across it (an axpy per row).
void gemv_reference(const Case& c, bool transposed, Expected& e) {
  const std::int64_t m = c.m, n = c.n, out = transposed ? n : m;
  e.value.assign(static_cast<std::size_t>(out), 0.0);
  e.magnitude.assign(static_cast<std::size_t>(out), 0.0);
  if (!transposed) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < m; ++i) {
      double s = 0, a = 0;
      const float* row = c.a.data() + i * n;
      for (std::int64_t j = 0; j < n; ++j) {
        s += static_cast<double>(row[j]) * c.x[static_cast<std::size_t>(j)];
        a += std::fabs(static_cast<double>(row[j]) * c.x[static_cast<std::size_t>(j)]);
      }
      e.value[static_cast<std::size_t>(i)] = s;
      e.magnitude[static_cast<std::size_t>(i)] = a;
    }
    return;
  }
  constexpr std::int64_t kBlock = 1024;
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t j0 = 0; j0 < n; j0 += kBlock) {
    const std::int64_t j1 = std::min(j0 + kBlock, n);
    for (std::int64_t i = 0; i < m; ++i) {
      const double xi = c.x[static_cast<std::size_t>(i)];
      const float* row = c.a.data() + i * n;
      for (std::int64_t j = j0; j < j1; ++j) {
        e.value[static_cast<std::size_t>(j)] += static_cast<double>(row[j]) * xi;
        e.magnitude[static_cast<std::size_t>(j)] += std::fabs(static_cast<double>(row[j]) * xi);
      }
    }
  }
}

}  // namespace

std::string_view routine_name(Routine r) {
  switch (r) {
    case Routine::saxpy: return "saxpy";
    case Routine::sscal: return "sscal";
    case Routine::sgemv: return "sgemv";
    case Routine::sgemv_t: return "sgemv_t";
    case Routine::sgemm: return "sgemm";
    case Routine::conv2d: return "conv2d";
  }
  return "unknown";
}

std::optional<Routine> parse_routine(std::string_view name) {
  for (Routine r : kRoutines)
    if (routine_name(r) == name) return r;
  return std::nullopt;
}

std::int64_t Case::output_size() const {
  switch (routine) {
    case Routine::saxpy:
    case Routine::sscal: return n;
    case Routine::sgemv: return m;
    case Routine::sgemv_t: return n;
    case Routine::sgemm:
    case Routine::conv2d: return m * n;
  }
  return 0;
}

std::vector<std::size_t> Case::output_shape() const {
  if (routine == Routine::sgemm || routine == Routine::conv2d) return {static_cast<std::size_t>(m), static_cast<std::size_t>(n)};
  return {static_cast<std::size_t>(output_size())};
}

std::string Case::size_str() const {
  switch (routine) {
    case Routine::saxpy:
    case Routine::sscal: return "n = " + std::to_string(n);
    case Routine::sgemv:
    case Routine::sgemv_t: return "A " + std::to_string(m) + "x" + std::to_string(n);
    case Routine::sgemm: return Dims{m, n, k}.str();
    case Routine::conv2d: return image_shape().str() + (separable ? ", separable" : "");
  }
  return {};
}

Case case_shape(Routine routine, const RoutineSizes& s) {
  Case c;
  c.routine = routine;
  switch (routine) {
    case Routine::saxpy: c.n = s.vector; c.alpha = -1.7f; break;
    case Routine::sscal: c.n = s.vector; c.alpha = 0.999f; break;
    case Routine::sgemv:
    case Routine::sgemv_t: c.m = s.gemv_m; c.n = s.gemv_n; break;
    case Routine::sgemm: c.m = c.n = c.k = s.gemm; break;
    case Routine::conv2d:
      conv::validate(s.image);
      c.m = s.image.rows;
      c.n = s.image.cols;
      c.k = s.image.k;
      c.separable = s.separable;
      break;
  }
  return c;
}

Case make_case(Routine routine, const RoutineSizes& s, unsigned seed) {
  Case c = case_shape(routine, s);
  switch (routine) {
    case Routine::saxpy: c.y = random_floats(c.n, seed + 1); [[fallthrough]];
    case Routine::sscal: c.x = random_floats(c.n, seed); break;
    case Routine::sgemv:
    case Routine::sgemv_t:
      c.a = random_floats(c.m * c.n, seed);
      c.x = random_floats(routine == Routine::sgemv ? c.n : c.m, seed + 1);
      break;
    case Routine::sgemm:
      c.a = random_floats(c.m * c.k, seed);
      c.b = random_floats(c.k * c.n, seed + 1);
      break;
    case Routine::conv2d:
      c.a = random_floats(c.m * c.n, seed);
      if (c.separable) {
        conv::SeparableFilter f = conv::make_separable_filter(static_cast<int>(c.k), seed + 1);
        c.b = std::move(f.filter);
        c.factors = std::move(f.col);
        c.factors.insert(c.factors.end(), f.row.begin(), f.row.end());
      } else {
        c.b = conv::make_filter(static_cast<int>(c.k), seed + 1);
      }
      break;
  }
  return c;
}

double host_bytes(Routine routine, const RoutineSizes& s) {
  // inputs in float, the reference's value and magnitude in double, a result in float (twice
  // for --dump), and for SGEMM the operands widened to double by the reference
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  switch (routine) {
    case Routine::saxpy: return d(s.vector) * (2 * 4 + 16 + 8);
    case Routine::sscal: return d(s.vector) * (4 + 16 + 8);
    case Routine::sgemv:
    case Routine::sgemv_t: return d(s.gemv_m) * d(s.gemv_n) * 4 + d(s.gemv_m + s.gemv_n) * (4 + 16 + 8);
    case Routine::sgemm: return d(s.gemm) * d(s.gemm) * (2 * (4 + 8) + 16 + 8 + 16);
    case Routine::conv2d: return d(s.image.pixels()) * (4 + 16 + 8);
  }
  return 0;
}

Expected reference(const Case& c) {
  Expected e;
  e.method = "FP64 loop";
  switch (c.routine) {
    case Routine::saxpy: {
      // α x is exact in double (24 + 24 bits); the sum rounds once: 2 γ_1(2^-53) covers it.
      e.gamma = gamma_n(2, kU32) + 2 * gamma_n(1, kU64);
      e.bound = "γ_2 (|α||x| + |y|)";
      e.value.resize(c.x.size());
      e.magnitude.resize(c.x.size());
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < c.x.size(); ++i) {
        const double ax = static_cast<double>(c.alpha) * c.x[i];
        e.value[i] = ax + c.y[i];
        e.magnitude[i] = std::fabs(ax) + std::fabs(static_cast<double>(c.y[i]));
      }
      break;
    }
    case Routine::sscal:
      e.gamma = gamma_n(1, kU32);  // the product is exact in double
      e.bound = "γ_1 |α||x|";
      e.value.resize(c.x.size());
      e.magnitude.resize(c.x.size());
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < c.x.size(); ++i) {
        e.value[i] = static_cast<double>(c.alpha) * c.x[i];
        e.magnitude[i] = std::fabs(e.value[i]);
      }
      break;
    case Routine::sgemv:
    case Routine::sgemv_t: {
      const bool t = c.routine == Routine::sgemv_t;
      gemv_reference(c, t, e);
      e.gamma = error_bound(Arithmetic::fp32, t ? c.m : c.n);
      e.bound = t ? "γ_m |Aᵀ||x|" : "γ_n |A||x|";
      break;
    }
    case Routine::sgemm: {
      const Dims d{c.m, c.n, c.k};
      Reference r = blas::reference(Operands{HostMatrix(d.a(), c.a), HostMatrix(d.b(), c.b)});
      e.value = std::move(r.c);
      e.magnitude = std::move(r.abs_ab);
      e.method = r.method;
      e.gamma = error_bound(Arithmetic::fp32, c.k);
      e.bound = "γ_k |A||B|";
      break;
    }
    case Routine::conv2d: {
      conv::Reference r = conv::reference(c.a, c.b, c.image_shape());
      e.value = std::move(r.value);
      e.magnitude = std::move(r.magnitude);
      // A separable filter may be applied in two passes of k-term sums with the unrounded factors:
      // γ_{2k+2} (routines.hpp), more than γ_{k²} only at k = 1.
      e.gamma = error_bound(Arithmetic::fp32, c.separable ? std::max(c.k * c.k, 2 * c.k + 2) : c.k * c.k);
      e.bound = c.separable ? "γ_{max(k², 2k+2)} |f| (*) |in|" : "γ_{k²} |f| (*) |in|";
      break;
    }
  }
  return e;
}

Verification compare(std::span<const float> got, const Expected& expected) {
  return compare_within<float>(got, expected.value, expected.magnitude, expected.gamma);
}

Work routine_work(const Case& c, int calls) {
  if (c.routine == Routine::sgemm) return gemm_work({c.m, c.n, c.k}, ElementType::f32, calls);
  if (c.routine == Routine::conv2d) return conv::conv2d_work(c.image_shape(), calls);
  const double n = static_cast<double>(c.n), m = static_cast<double>(c.m);
  Work w;
  w.kernel = std::string(routine_name(c.routine));
  w.steps = calls;
  w.step = "call";
  w.item = "elements";
  switch (c.routine) {
    case Routine::saxpy:
      w.flops = 2 * n;
      w.bytes_min = 3 * n * kFloat;
      w.items = n;
      w.reads = 2;
      break;
    case Routine::sscal:
      w.flops = n;
      w.bytes_min = 2 * n * kFloat;
      w.items = n;
      break;
    default:  // sgemv, sgemv_t
      w.flops = 2 * m * n;
      w.bytes_min = (m * n + m + n) * kFloat;
      w.items = m * n;
      w.item = "matrix elements";
      w.reads = stream_mix(c, 0).reads;
      break;
  }
  w.flops *= calls;
  w.bytes_min *= calls;
  w.items *= calls;
  w.bytes_all = w.bytes_min;
  return w;
}

double input_elements(const Case& c) {
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  switch (c.routine) {
    case Routine::saxpy: return 2 * d(c.n);
    case Routine::sscal: return d(c.n);
    case Routine::sgemv: return d(c.m * c.n + c.n);
    case Routine::sgemv_t: return d(c.m * c.n + c.m);
    case Routine::sgemm: return d(c.m * c.k + c.k * c.n);
    case Routine::conv2d: return d(c.m * c.n + c.k * c.k);
  }
  return 0;
}

double transfer_bytes(const Case& c) {
  const double in = static_cast<double>(c.a.size() + c.b.size() + c.x.size() + c.y.size() + c.factors.size());
  return 4 * (in + static_cast<double>(c.output_size()));
}

StreamMix stream_mix(const Case& c, int threads) {
  StreamMix mix;
  mix.threads = threads;
  switch (c.routine) {
    case Routine::saxpy: mix.reads = 2; mix.elements = static_cast<std::size_t>(c.n); break;
    case Routine::sscal: mix.elements = static_cast<std::size_t>(c.n); break;
    case Routine::conv2d: mix.elements = static_cast<std::size_t>(c.m * c.n); break;
    case Routine::sgemm: mix.reads = 2; mix.elements = static_cast<std::size_t>((c.m * c.k + c.k * c.n + c.m * c.n) / 3); break;
    case Routine::sgemv:
    case Routine::sgemv_t: {
      // reads:writes of the routine (all it reads over the y it writes), at most the 16:1 the limit
      // kernels have; then arrays of the length that gives the routine's bytes.
      const double out = static_cast<double>(c.output_size()), total = static_cast<double>(c.m * c.n + c.m + c.n);
      mix.reads = static_cast<int>(std::clamp(std::llround((total - out) / out), 1LL, 16LL));
      mix.elements = static_cast<std::size_t>(std::ceil(total / (mix.reads + 1)));
      break;
    }
  }
  mix.elements = std::max<std::size_t>(mix.elements, 1);
  return mix;
}

// The widest FMA this build may use, written out. Left to the auto-vectoriser, GCC's -march=native
// prefers 256-bit vectors on Intel's AVX-512 cores (its -mprefer-vector-width=256 tuning): the
// "peak" came out at half the hardware's, and OpenBLAS's SGEMM beat it. The ceiling is what the
// widest instruction gives, so name that instruction.
namespace {
#if defined(__AVX512F__)
using FmaVector = __m512;
FmaVector splat(float v) { return _mm512_set1_ps(v); }
FmaVector fma_step(FmaVector a, FmaVector b, FmaVector c) { return _mm512_fmadd_ps(a, b, c); }
#elif defined(__AVX2__) && defined(__FMA__)
using FmaVector = __m256;
FmaVector splat(float v) { return _mm256_set1_ps(v); }
FmaVector fma_step(FmaVector a, FmaVector b, FmaVector c) { return _mm256_fmadd_ps(a, b, c); }
#else
using FmaVector = float;  // a build for any x86-64 (or another ISA): the scalar FMA
FmaVector splat(float v) { return v; }
FmaVector fma_step(FmaVector a, FmaVector b, FmaVector c) { return std::fma(a, b, c); }
#endif
constexpr int kFmaLanes = sizeof(FmaVector) / sizeof(float);

float lane_sum(const FmaVector& v) {
  float lanes[kFmaLanes];
  std::memcpy(lanes, &v, sizeof v);
  float sum = 0;
  for (float x : lanes) sum += x;
  return sum;
}
}  // namespace

//! [cpu_fma_peak]
double cpu_fma_peak_gflops(int threads) {
  // Independent chains: two FMA ports of latency 4 need 8 in flight; 12, plus the two constants,
  // still fit the 16 vector registers of AVX2 (AVX-512 has 32).
  constexpr int kChains = 12;
  constexpr int kIterations = 1 << 17;  // short: a quiet moment is easier to find on a busy host
  threads = std::max(threads, 1);
  double best = INFINITY, sink = 0;
  int ran = 0;  // the threads OpenMP gave us, which the FLOPs count
  for (int rep = 0; rep < 21; ++rep) {  // the first wakes the cores and lets the clocks settle; best of 20
    Stopwatch clock;
    ran = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sink, ran)
    {
      ran += 1;
      FmaVector acc[kChains];
      for (int l = 0; l < kChains; ++l) acc[l] = splat(static_cast<float>(l) * 1e-3f);
      const FmaVector b = splat(0.9999999f), c = splat(1e-7f);  // acc tends to 1: no overflow, no subnormals
      for (int it = 0; it < kIterations; ++it) {
#pragma GCC unroll 12
        for (int l = 0; l < kChains; ++l) acc[l] = fma_step(acc[l], b, c);
      }
      for (const FmaVector& a : acc) sink += lane_sum(a);
    }
    if (rep > 0) best = std::min(best, clock.seconds());
  }
  if (!(sink > 0)) throw std::logic_error("cpu_fma_peak: the chains lost their values");
  return 2.0 * kChains * kFmaLanes * kIterations * ran / best / 1e9;
}
//! [cpu_fma_peak]

void dump_case(DumpFolder& dump, const Case& c) {
  const std::string name(routine_name(c.routine));
  const auto shape = [](std::int64_t r, std::int64_t cols) {
    return std::vector<std::size_t>{static_cast<std::size_t>(r), static_cast<std::size_t>(cols)};
  };
  const float alpha[] = {c.alpha};
  const bool gemm = c.routine == Routine::sgemm;
  if (!c.x.empty()) dump.write(name + "_alpha.npy", std::span<const float>(alpha), {1});
  if (!c.x.empty()) dump.write(name + "_x.npy", std::span<const float>(c.x), {c.x.size()});
  if (!c.y.empty()) dump.write(name + "_y.npy", std::span<const float>(c.y), {c.y.size()});
  if (!c.a.empty()) dump.write(name + "_a.npy", std::span<const float>(c.a), shape(c.m, gemm ? c.k : c.n));
  if (!c.b.empty()) dump.write(name + "_b.npy", std::span<const float>(c.b), gemm ? shape(c.k, c.n) : shape(c.k, c.k));
  if (!c.factors.empty()) dump.write(name + "_factors.npy", std::span<const float>(c.factors), shape(2, c.k));  // u; v
}

void add_copy_rates(ResultRow& row, const Case& c, const Work& one, double kernel_s, const std::vector<double>& with_copies,
                    const std::vector<double>& with_pinned, const std::vector<double>& with_overlapped) {
  struct Timed {
    const char* key;
    const std::vector<double>* seconds;
    double calls_in_series_s;
  };
  for (const Timed& t : {Timed{"with_copies", &with_copies, kernel_s}, Timed{"with_pinned", &with_pinned, kernel_s},
                         Timed{"with_overlapped", &with_overlapped, 0.0}}) {
    const std::string key = t.key;
    const double s = t.seconds->empty() ? std::nan("") : median(*t.seconds);
    row.extra["ms_" + key] = json_number(1e3 * s);
    row.extra["gflops_" + key] = json_number(one.flops / s / 1e9);
    row.extra["bus_gbs_" + key] = json_number(transfer_bytes(c) / (s - t.calls_in_series_s) / 1e9);
  }
}

}  // namespace gpgpu::blas
