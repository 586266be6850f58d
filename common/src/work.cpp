#include "gpgpu/work.hpp"

#include <nlohmann/json.hpp>

namespace gpgpu {

Rates rates(const Work& w, double seconds) {
  return {w.flops / seconds / 1e9, w.bytes_min / seconds / 1e9, w.bytes_all / seconds / 1e9, w.items / seconds};
}

double floor_seconds(const Work& w, double limit_gbs) { return w.bytes_min / (limit_gbs * 1e9); }

void to_json(nlohmann::json& j, const Work& w) {
  j = {{"kernel", w.kernel}, {"flops", w.flops},  {"bytes_min", w.bytes_min}, {"bytes_all", w.bytes_all},
       {"items", w.items},   {"item", w.item},    {"steps", w.steps},         {"step", w.step},
       {"reads", w.reads},   {"writes", w.writes}};
}

}  // namespace gpgpu
