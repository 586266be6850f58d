// The OpenCL (opener and session): device options, the device block, the session's JSON (device,
// start-up, the stream kernel's builds) and its limits.
#include "gpgpu/opencl/opener.hpp"

#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "stream_limit.hpp"

namespace gpgpu::ocl {
namespace {

class OpenClSession final : public Session {
 public:
  explicit OpenClSession(const DeviceOptions& options) : runtime_(options), limits_(runtime_) {}
  [[nodiscard]] Backend backend() const override { return Backend::opencl; }
  [[nodiscard]] std::string device() const override { return runtime_.info().label(); }
  void print(std::ostream& out) const override {
    print_device_info(out, runtime_.info());
    out << "Memory:   OpenCL reports no memory clock or bus width: limits are measured, none is theoretical\n";
  }
  [[nodiscard]] nlohmann::json json() const override {
    nlohmann::json j = runtime_.info();
    j["startup"] = runtime_.startup();
    nlohmann::json builds = nlohmann::json::array();
    for (const auto& [what, seconds] : limits_.builds()) builds.push_back({{"kernel", what}, {"seconds", seconds}});
    j["stream_limit_builds"] = builds;  // not start-up: a user's program never builds them
    j["cache"] = {{"bytes", cache_bytes()}, {"name", cache_name()}};
    j["theoretical_bandwidth"] = "not reported by OpenCL (no memory clock or bus width query)";
    return j;
  }
  Limit stream_limit(const StreamMix& mix) override {
    Limit l = limits_.limit(mix);
    l.working_set = working_set_class(mix.bytes(), cache_bytes(), cache_name());
    return l;
  }
  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE. A CPU device that reports none (PoCL: CL_NONE) runs on the
  // host, so the host's last-level cache stands in for it, and the name says so.
  [[nodiscard]] double cache_bytes() const override {
    const DeviceInfo& i = runtime_.info();
    return static_cast<double>(i.global_cache_bytes == 0 && i.is_cpu ? last_level_cache_bytes() : i.global_cache_bytes);
  }
  [[nodiscard]] std::string cache_name() const override {
    const DeviceInfo& i = runtime_.info();
    if (i.global_cache_bytes == 0 && i.is_cpu) return "last-level cache (host's: the device reports none)";
    return i.is_gpu ? "global-memory cache (L2)" : "global-memory cache";
  }

  Runtime& runtime() { return runtime_; }

 private:
  Runtime runtime_;
  StreamLimits limits_;  // refers to runtime_
};

class OpenClOpener final : public BackendOpener {
 public:
  [[nodiscard]] Backend backend() const override { return Backend::opencl; }
  void add_options(Cli& cli) override {
    add_device_options(cli, options_);
    cli.on_parsed([this](const Cli&) {
      if (!options_.list) return;
      list_devices(std::cout);  // no platform: BackendUnavailable, exit 77
      throw ExitRequest{kExitSuccess};
    });
  }
  std::unique_ptr<Session> open() override { return open_session(options_); }

 private:
  DeviceOptions options_;
};

}  // namespace

std::unique_ptr<BackendOpener> opener() { return std::make_unique<OpenClOpener>(); }

std::unique_ptr<Session> open_session(const DeviceOptions& options) { return std::make_unique<OpenClSession>(options); }

Runtime& runtime_of(Session& session) {
  auto* s = dynamic_cast<OpenClSession*>(&session);
  if (s == nullptr) throw std::logic_error("not an OpenCL session: " + session.device());
  return s->runtime();
}

}  // namespace gpgpu::ocl
