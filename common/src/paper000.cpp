#include "gpgpu/paper000.hpp"

namespace gpgpu::paper000 {

std::vector<Result> results_1024(std::string_view implementation) {
  std::vector<Result> out;
  for (const Result& r : kResults1024)
    if (r.implementation == implementation) out.push_back(r);
  return out;
}

std::vector<ThenNowRow> then_rows(std::string_view implementation) {
  std::vector<ThenNowRow> out;
  for (const Result& r : results_1024(implementation)) {
    const Machine* m = machine(r.machine);
    const bool cpu = implementation == "CPU";
    const double share = cpu ? r.gbs_all / m->cpu_peak_gbs : r.gbs_device / m->gpu_peak_gbs;
    out.push_back({"then", std::string(cpu ? m->cpu : m->gpu), std::string(r.implementation), r.seconds, r.gflops,
                   r.gbs_all, r.gbs_device, share});
  }
  return out;
}

}  // namespace gpgpu::paper000
