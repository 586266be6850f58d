#include "gpgpu/backend.hpp"

#include <nlohmann/json.hpp>

#include "gpgpu/memory.hpp"

namespace gpgpu {

std::string_view backend_name(Backend b) {
  switch (b) {
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
    case Backend::opencl: return "opencl";
    case Backend::gl: return "gl";
  }
  return "unknown";
}

std::string StreamMix::str() const {
  return std::to_string(reads) + ":" + std::to_string(writes) + " x " + std::to_string(elements) + " x " +
         std::to_string(element_bytes) + " B" + (pipeline.empty() ? "" : ", " + pipeline);
}

std::string working_set_class(double bytes, double cache_bytes, const std::string& cache_name) {
  const bool fits = bytes <= cache_bytes;
  return std::string(fits ? "cache-resident (" : "memory (") + format_bytes(bytes) + (fits ? " <= " : " > ") +
         format_bytes(cache_bytes) + " " + cache_name + ")";
}

void to_json(nlohmann::json& j, const Limit& l) {
  j = {{"name", l.name},
       {"gbs", l.gbs},
       {"mix", l.mix},
       {"working_set", l.working_set},
       {"theoretical_gbs", std::isfinite(l.theoretical_gbs) ? nlohmann::json(l.theoretical_gbs) : nlohmann::json()},
       {"stream_gbs", std::isfinite(l.stream_gbs) ? nlohmann::json(l.stream_gbs) : nlohmann::json(l.gbs)},
       {"raised_by", l.raised_by.empty() ? nlohmann::json() : nlohmann::json(l.raised_by)}};
}

}  // namespace gpgpu
