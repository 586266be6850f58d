#include "gpgpu/work_counts.hpp"

#include <stdexcept>
#include <string>

namespace gpgpu {

const WorkCounts& work_counts(std::string_view kernel) {
  for (const WorkCounts& w : kWorkTable)
    if (w.kernel == kernel) return w;
  throw std::out_of_range("no work counts for kernel '" + std::string(kernel) + "' in kWorkTable");
}

Rates rates(const WorkCounts& w, double nodes, double iters, double seconds) {
  const double per_second = nodes * iters / seconds;
  return {w.flops * per_second / 1e9, w.bytes_all * per_second / 1e9, w.bytes_min * per_second / 1e9};
}

double floor_seconds_per_iter(const WorkCounts& w, double nodes, double limit_gbs) {
  return w.bytes_min * nodes / (limit_gbs * 1e9);
}

}  // namespace gpgpu
