#include "gpgpu/cpu_backend.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "gpgpu/cli.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/sysinfo.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu {

std::size_t last_level_cache_bytes() {
  std::size_t best = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string text;
    if (!(f >> text)) continue;
    std::size_t value = std::stoull(text);
    if (text.back() == 'K') value *= 1024;
    if (text.back() == 'M') value *= 1024 * 1024;
    best = std::max(best, value);
  }
  return best > 0 ? best : std::size_t{32} << 20;
}

namespace {

// The largest mix the CPU limit supports: 16 arrays read, 12 written (the TLM node's 12 pulses in
// and out is the widest mix of the tutorial).
constexpr int kMaxReads = 16;
constexpr int kMaxWrites = 12;

// One pass over [begin, end): out_w[i] = a_0[i] + ... + a_{R-1}[i] for every output w. R and W are
// compile-time constants, so each element's loads and stores are straight-line code in one loop
// that the compiler vectorises (omp simd: the arrays never overlap); the sum keeps every load live.
template <int R, int W>
void stream_range(const float* const* in, float* const* out, std::size_t begin, std::size_t end) {
#pragma omp simd
  for (std::size_t i = begin; i < end; ++i) {
    float sum = 0.0f;
    for (int r = 0; r < R; ++r) sum += in[r][i];
    for (int w = 0; w < W; ++w) out[w][i] = sum;
  }
}

using StreamFn = void (*)(const float* const*, float* const*, std::size_t, std::size_t);

template <int R, int... W>
constexpr std::array<StreamFn, sizeof...(W)> writes_row(std::integer_sequence<int, W...>) {
  return {&stream_range<R, W + 1>...};
}
template <int... R>
constexpr std::array<std::array<StreamFn, kMaxWrites>, sizeof...(R)> stream_table(std::integer_sequence<int, R...>) {
  return {writes_row<R + 1>(std::make_integer_sequence<int, kMaxWrites>())...};
}
// kStream[R-1][W-1] streams R arrays in and W out.
constexpr auto kStream = stream_table(std::make_integer_sequence<int, kMaxReads>());

}  // namespace

double measure_host_stream_gbs(const StreamMix& mix, int threads) {
  threads = std::max(threads, 1);
  const std::size_t n = std::max<std::size_t>(mix.elements * static_cast<std::size_t>(mix.element_bytes) / 4, 1);
  if (mix.reads < 1 || mix.reads > kMaxReads || mix.writes < 1 || mix.writes > kMaxWrites)
    throw std::invalid_argument("measure_host_stream_gbs: mix " + mix.str() + " outside 1..16 reads, 1..12 writes");
  const StreamFn stream = kStream[static_cast<std::size_t>(mix.reads - 1)][static_cast<std::size_t>(mix.writes - 1)];
  const int arrays = mix.reads + mix.writes;
  // One allocation, every array 64-byte aligned (no vector load splits a cache line) and each at its
  // own offset modulo 4 KiB, 128 bytes apart (as STREAM's OFFSET): arrays whose addresses agree in
  // their low 12 bits make the core take a load for a dependence on an earlier store to the other
  // array ("4K aliasing"), which slows the stream by a tenth or more and would make the limit a
  // limit no longer. 32 arrays fit 4 KiB.
  constexpr std::size_t kLine = 16, kPage = 1024;  // in floats
  const std::size_t stride = (n + kPage - 1) / kPage * kPage + 2 * kLine;
  // Not value-initialised: each thread first touches its own share below (NUMA).
  const std::unique_ptr<float[]> storage(new float[stride * static_cast<std::size_t>(arrays) + kPage]);
  float* const base = storage.get() + (kPage - reinterpret_cast<std::uintptr_t>(storage.get()) / sizeof(float) % kPage) % kPage;
  std::vector<float*> in, out;
  for (int a = 0; a < arrays; ++a) (a < mix.reads ? in : out).push_back(base + stride * static_cast<std::size_t>(a));
  // One parallel region for the whole measurement, the passes separated by barriers, as chapter
  // 01's solvers run their iterations (a region per pass would time the fork and join too). Each
  // thread keeps its share of every array for the first touch and every pass, so the pages of a
  // share sit next to its thread (NUMA) and stay in its caches when they fit.
  // Timed: each thread's own time in the stream, not its wait at the barriers; a pass counts as long
  // as its slowest thread's work. On a busy host a thread descheduled at a barrier (a timeslice,
  // milliseconds) held every pass of a cache-sized mix back, so that one run of a cache-sized mix
  // could measure a thousandth of the next one's rate. What the barriers cost is the variant's
  // business, and its share shows it.
  constexpr int kSamples = 5;
  int per_sample = 1;  // passes per sample: enough for about 20 ms, so a sample is not one short pass
  double best = 0;
  std::vector<double> busy(static_cast<std::size_t>(std::max(threads, 1)), 0.0);  // per thread, one sample
#pragma omp parallel num_threads(threads)
  {
    int id = 0, count = 1;
#ifdef _OPENMP
    id = omp_get_thread_num();
    count = omp_get_num_threads();
#endif
    const std::size_t chunk = (n + static_cast<std::size_t>(count) - 1) / static_cast<std::size_t>(count);
    const std::size_t begin = std::min(n, static_cast<std::size_t>(id) * chunk);
    const std::size_t end = std::min(n, begin + chunk);
    for (float* p : in) std::fill(p + begin, p + end, 1.0f);
    for (float* p : out) std::fill(p + begin, p + end, 0.0f);
#pragma omp barrier
    stream(in.data(), out.data(), begin, end);  // untimed: warms the caches a cache-sized working set lives in
    Stopwatch clock;  // each thread's own
#pragma omp barrier
    clock.restart();
    stream(in.data(), out.data(), begin, end);
    if (id == 0) per_sample = static_cast<int>(std::clamp(0.02 / std::max(clock.seconds(), 1e-9), 1.0, 1000.0));
#pragma omp barrier
    const auto slot = static_cast<std::size_t>(std::min(id, static_cast<int>(busy.size()) - 1));
    const std::size_t used = std::min(static_cast<std::size_t>(count), busy.size());
    for (int sample = 0; sample < kSamples; ++sample) {
      double mine = 0;
      for (int p = 0; p < per_sample; ++p) {
        clock.restart();
        stream(in.data(), out.data(), begin, end);
        mine += clock.seconds();
#pragma omp barrier
      }
      busy[slot] = mine;
#pragma omp barrier
      if (id == 0) {
        const double slowest = *std::max_element(busy.begin(), busy.begin() + static_cast<std::ptrdiff_t>(used));
        if (slowest > 0) best = std::max(best, mix.bytes() * per_sample / slowest / 1e9);
      }
#pragma omp barrier  // busy is read before the next sample writes it
    }
  }
  return best;
}

namespace {

class CpuSessionImpl final : public Session {
 public:
  explicit CpuSessionImpl(const std::vector<int>& thread_counts)
      : counts_(distinct(thread_counts)),
        threads_(*std::max_element(counts_.begin(), counts_.end())),
        host_(host_info()),
        llc_(last_level_cache_bytes()) {}
  [[nodiscard]] Backend backend() const override { return Backend::cpu; }
  [[nodiscard]] std::string device() const override {
    return "CPU, " + std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads");
  }
  void print(std::ostream& out) const override {
    out << "CPU:      " << host_.cpu_model << ", " << counts_str() << " thread(s) for the parallel variants (--threads), "
        << format_bytes(static_cast<double>(llc_)) << " last-level cache\n";
  }
  [[nodiscard]] nlohmann::json json() const override {
    return {{"cpu_model", host_.cpu_model}, {"threads", threads_}, {"thread_counts", counts_},
            {"last_level_cache_bytes", llc_}};
  }
  Limit stream_limit(const StreamMix& mix) override {
    const int threads = mix.threads > 0 ? mix.threads : threads_;
    const auto key = std::make_tuple(mix.reads, mix.writes, mix.elements, mix.element_bytes, threads);  // one CPU pipeline
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, measure_host_stream_gbs(mix, threads)).first;
    return {"host stream " + std::to_string(mix.reads) + ":" + std::to_string(mix.writes) + ", " +
                std::to_string(threads) + (threads == 1 ? " thread" : " threads"),
            it->second, mix.str(), working_set_class(mix.bytes(), cache_bytes(), cache_name()), std::nan(""), std::nan(""), {}};
  }
  [[nodiscard]] double cache_bytes() const override { return static_cast<double>(llc_); }
  [[nodiscard]] std::string cache_name() const override { return "last-level cache"; }
  [[nodiscard]] int threads() const { return threads_; }
  [[nodiscard]] const std::vector<int>& thread_counts() const { return counts_; }

 private:
  // In the order given, each count once (--threads 4,4 runs the variants once); never empty.
  static std::vector<int> distinct(const std::vector<int>& counts) {
    std::vector<int> out;
    for (int c : counts)
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    if (out.empty()) out.push_back(default_cpu_threads());
    return out;
  }
  [[nodiscard]] std::string counts_str() const {
    std::string s;
    for (int c : counts_) s += (s.empty() ? "" : ",") + std::to_string(c);
    return s;
  }
  std::vector<int> counts_;  // --threads as given, in order
  int threads_;              // the largest: the count of a parallel variant that names none
  HostInfo host_;
  std::size_t llc_;
  std::map<std::tuple<int, int, std::size_t, int, int>, double> cache_;
};

class CpuOpener final : public BackendOpener {
 public:
  [[nodiscard]] Backend backend() const override { return Backend::cpu; }
  void add_options(Cli& cli) override {
    cli.group("CPU")
        .add_option("--threads", threads_,
                    "OpenMP threads of the parallel CPU variants; a comma-separated list (1,2,4) runs them once per count")
        ->delimiter(',')
        ->check(cpu_thread_count())
        ->capture_default_str();
    // The regions without a num_threads clause of their own (the reference, the inputs) take the
    // largest count too: --threads bounds every thread of the run.
    cli.on_parsed([this](const Cli&) { use_cpu_threads(*std::max_element(threads_.begin(), threads_.end())); });
  }
  std::unique_ptr<Session> open() override { return std::make_unique<CpuSessionImpl>(threads_); }

 private:
  std::vector<int> threads_{default_cpu_threads()};
};

}  // namespace

std::unique_ptr<BackendOpener> cpu_opener() { return std::make_unique<CpuOpener>(); }

int cpu_threads(const Session& s) {
  if (const auto* cpu = dynamic_cast<const CpuSessionImpl*>(&s)) return cpu->threads();
  return default_cpu_threads();
}

std::vector<int> cpu_thread_counts(const Session& s) {
  if (const auto* cpu = dynamic_cast<const CpuSessionImpl*>(&s)) return cpu->thread_counts();
  return {default_cpu_threads()};
}

}  // namespace gpgpu
