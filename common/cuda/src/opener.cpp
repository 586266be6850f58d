#include "gpgpu/cuda/opener.hpp"

#include <cmath>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/cuda/stream_limit.hpp"
#include "gpgpu/memory.hpp"

namespace gpgpu::cuda {
namespace {

class CudaSession final : public Session {
 public:
  explicit CudaSession(int index) : info_(open_device(index)) {}
  [[nodiscard]] Backend backend() const override { return Backend::cuda; }
  [[nodiscard]] std::string device() const override { return info_.name; }
  void print(std::ostream& out) const override { print_device_info(out, info_); }
  [[nodiscard]] nlohmann::json json() const override { return info_; }

  // Measured once per mix (the first variant that needs it), then shared by every row of the run.
  Limit stream_limit(const StreamMix& mix) override {
    const auto key = std::make_tuple(mix.reads, mix.writes, mix.elements, mix.element_bytes);  // one CUDA pipeline
    auto it = measured_.find(key);
    if (it == measured_.end()) it = measured_.emplace(key, measure_stream(mix, info_.sm_count, static_cast<double>(info_.l2_bytes))).first;
    const StreamMeasurement& m = it->second;
    const std::string how = m.threads == 0 ? "cudaMemcpyAsync" : std::to_string(m.blocks) + " x " + std::to_string(m.threads);
    return {"stream " + std::to_string(mix.reads) + ":" + std::to_string(mix.writes) + ", float4 kernel" +
                (mix.reads == 1 && mix.writes == 1 ? " or cudaMemcpy" : "") + ", best of " +
                std::to_string(m.shapes) + " launch shapes (" + how + (m.unroll > 1 ? ", 2 steps per thread" : "") + (m.hints ? ", L2 prefetch 256 B" : "") +
                (m.passes > 1 ? ", " + std::to_string(m.passes) + " passes per launch" : "") +
                (m.elements_measured * 4 < mix.elements * static_cast<std::size_t>(mix.element_bytes)
                     ? ", at " + format_bytes(static_cast<double>(m.elements_measured) * 4.0 * (mix.reads + mix.writes)) +
                           " inside the cache"
                     : "") +
                ")",
            m.gbs, mix.str(), working_set_class(mix.bytes(), cache_bytes(), cache_name()),
            info_.nominal_bandwidth_gbs(), std::nan(""), ""};  // stream_gbs and raised_by: set by settle_limits
  }
  [[nodiscard]] double cache_bytes() const override { return static_cast<double>(info_.l2_bytes); }
  [[nodiscard]] std::string cache_name() const override { return "L2"; }
  [[nodiscard]] const DeviceInfo& info() const { return info_; }

 private:
  DeviceInfo info_;
  std::map<std::tuple<int, int, std::size_t, int>, StreamMeasurement> measured_;
};

class CudaOpener final : public BackendOpener {
 public:
  [[nodiscard]] Backend backend() const override { return Backend::cuda; }
  void add_options(Cli& cli) override {
    cli.group("CUDA device")
        .add_option("--device", index_, "CUDA device to run on (0 = first; see nvidia-smi -L)")
        ->check(integer_in_range(0, 1023))
        ->capture_default_str();
  }
  std::unique_ptr<Session> open() override { return open_session(index_); }

 private:
  int index_ = 0;
};

}  // namespace

std::unique_ptr<BackendOpener> opener() { return std::make_unique<CudaOpener>(); }

std::unique_ptr<Session> open_session(int index) { return std::make_unique<CudaSession>(index); }

const DeviceInfo& device_info(const Session& s) {
  if (const auto* cuda = dynamic_cast<const CudaSession*>(&s)) return cuda->info();
  throw std::invalid_argument("device_info: a " + std::string(backend_name(s.backend())) + " session, not a CUDA one");
}

}  // namespace gpgpu::cuda
