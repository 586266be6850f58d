#include "cpu_variants.hpp"

#include <memory>

#include "cpu_tlm.hpp"
#include "gpgpu/cpu_backend.hpp"

namespace ch11 {

gpgpu::tlm::VariantSpec cpu_variant(bool parallel) {
  gpgpu::tlm::VariantSpec v;
  v.info = {parallel ? "cpu_openmp" : "cpu_serial", gpgpu::Backend::cpu,
            parallel ? "fused pull step, OpenMP over the rows (--threads)" : "fused pull step, one thread",
            "chapters/11_tlm_coalesced/cpu_tlm.cpp", "CPU"};
  v.opener = gpgpu::cpu_opener;
  v.timer = "steady_clock";
  v.threads = parallel ? 0 : 1;
  v.make = [parallel](const gpgpu::tlm::Problem& problem, gpgpu::Session& cpu) {
    return std::make_unique<CpuSolver>(problem, parallel ? gpgpu::cpu_threads(cpu) : 1);
  };
  return v;
}

}  // namespace ch11
