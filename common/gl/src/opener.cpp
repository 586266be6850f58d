#include "gpgpu/gl/opener.hpp"

#include <cmath>
#include <ostream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu::gl {
namespace {

// OpenGL has no query for a GPU's cache sizes. The working-set class of a GPU's limit assumes the
// L2 of the GPU this tutorial measures on (the H100's 50 MiB); the limit itself is measured with
// the variant's own working set either way, so only the class's wording rests on it.
constexpr double kAssumedGpuL2Bytes = 50.0 * (1 << 20);

std::string format_gbs(double gbs) { return format_cell("%.1f", gbs); }

}  // namespace

Session::Session(std::unique_ptr<Context> context) : context_(std::move(context)) {}
Session::~Session() = default;

void Session::print(std::ostream& out) const { print_context_info(out, info()); }

nlohmann::json Session::json() const {
  nlohmann::json j = info();
  j["stream_limits"] = nlohmann::json::array();
  for (const auto& [key, m] : measured_) j["stream_limits"].push_back(m);
  j["cache_bytes"] = cache_bytes();
  j["cache_name"] = cache_name();
  return j;
}

double Session::cache_bytes() const {
  return info().software ? static_cast<double>(last_level_cache_bytes()) : kAssumedGpuL2Bytes;
}

std::string Session::cache_name() const {
  return info().software ? "host last-level cache" : "L2 (assumed: GL reports no cache size)";
}

const StreamMeasurement& Session::measured(const StreamMix& mix, Pipeline pipeline) {
  const auto floats = static_cast<std::size_t>(std::ceil(static_cast<double>(mix.elements) * mix.element_bytes / 4.0));
  const StreamShape shape = stream_shape(floats, info().max_texture_size);
  const auto key = std::make_tuple(mix.reads, mix.writes, shape.width, shape.height, pipeline);
  auto it = measured_.find(key);
  if (it == measured_.end())
    it = measured_.emplace(key, measure_stream(info(), mix.reads, mix.writes, shape, pipeline)).first;
  return it->second;
}

Limit Session::stream_limit(const StreamMix& mix) {
  const Pipeline pipeline = parse_pipeline(mix.pipeline);
  const StreamMeasurement* m = &measured(mix, pipeline);
  std::string name = m->name();
  if (pipeline == Pipeline::Compute && info().software) {
    // Both paths run on the same CPU cores; the compute variant is judged against the faster one.
    const StreamMeasurement& fragment = measured(mix, Pipeline::Fragment);
    name = (fragment.gbs > m->gbs ? fragment.name() : m->name()) + ", the faster path on a software renderer (fragment " +
           format_gbs(fragment.gbs) + ", compute " + format_gbs(m->gbs) + " GB/s)";
    if (fragment.gbs > m->gbs) m = &fragment;
  }
  return {name, m->gbs, mix.str(), working_set_class(m->bytes_per_pass(), cache_bytes(), cache_name()), std::nan(""), std::nan(""), {}};
}

void Opener::add_options(Cli& cli) {
  cli.group("OpenGL")
      .add_option("--egl", egl_, "EGL platform of the headless context: auto, device or surfaceless")
      ->check(CLI::IsMember({"auto", "device", "surfaceless"}))
      ->capture_default_str();
}

std::unique_ptr<gpgpu::Session> Opener::open() { return std::make_unique<Session>(open_context()); }

std::unique_ptr<Context> Opener::open_context() { return std::make_unique<HeadlessContext>(egl_platform()); }

std::unique_ptr<gpgpu::BackendOpener> opener() { return std::make_unique<Opener>(); }

Session& session(gpgpu::Session& s) {
  if (auto* gl = dynamic_cast<Session*>(&s)) return *gl;
  throw std::logic_error("a " + std::string(backend_name(s.backend())) + " session is not a GL session");
}

}  // namespace gpgpu::gl
