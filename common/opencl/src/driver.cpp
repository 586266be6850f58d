// The OpenCL driver and session: device options, the device block, the session's JSON (device,
// start-up, the stream kernel's builds) and its limits.
#include "gpgpu/opencl/driver.hpp"

#include <iostream>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/errors.hpp"

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
  Limit stream_limit(const StreamMix& mix) override { return limits_.limit(mix); }
  [[nodiscard]] double cache_bytes() const override { return device_cache(runtime_.info()).bytes; }
  [[nodiscard]] std::string cache_name() const override { return device_cache(runtime_.info()).name; }

  Runtime& runtime() { return runtime_; }
  [[nodiscard]] const StreamLimits& limits() const { return limits_; }

 private:
  Runtime runtime_;
  StreamLimits limits_;  // refers to runtime_
};

class OpenClDriver final : public Driver {
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

template <typename SessionT>  // Session or const Session
auto& as_opencl(SessionT& session) {
  using Target = std::conditional_t<std::is_const_v<SessionT>, const OpenClSession, OpenClSession>;
  auto* s = dynamic_cast<Target*>(&session);
  if (s == nullptr) throw std::logic_error("not an OpenCL session: " + session.device());
  return *s;
}

}  // namespace

std::unique_ptr<Driver> driver() { return std::make_unique<OpenClDriver>(); }

std::unique_ptr<Session> open_session(const DeviceOptions& options) { return std::make_unique<OpenClSession>(options); }

Runtime& runtime_of(Session& session) { return as_opencl(session).runtime(); }

const StreamLimits& stream_limits_of(const Session& session) { return as_opencl(session).limits(); }

}  // namespace gpgpu::ocl
