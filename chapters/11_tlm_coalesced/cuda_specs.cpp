#include "cuda_specs.hpp"

#include <memory>

#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda/opener.hpp"

namespace ch11 {

gpgpu::tlm::VariantSpec cuda_variant(CudaKernels kernels) {
  struct Row {
    const char *name, *description, *file, *paper, *work;
  };
  static constexpr Row kRows[] = {
      {"cuda_aos", "scatter + connect kernels, a node's 12 pulses together", "11_aos.cu", "GPU non-coalesced (Fig. 7)",
       "scn_two_kernel"},
      {"cuda_coalesced", "scatter + connect kernels, 12 link-line arrays in 64-node segments", "11_coalesced.cu",
       "GPU coalesced (Fig. 7)", "scn_two_kernel"},
      {"cuda_fused", "one pull-scatter-write kernel, FP32 pulses", "11_fused.cu", "", "scn_fused"},
      {"cuda_fused_half", "one pull-scatter-write kernel, FP16 pulses, FP32 arithmetic", "11_fused_half.cu", "",
       "scn_fused_half"},
  };
  const Row& r = kRows[static_cast<int>(kernels)];
  gpgpu::tlm::VariantSpec v;
  v.info = {r.name, gpgpu::Backend::cuda, r.description, std::string("kernels/tlm/cuda/") + r.file, r.paper};
  v.opener = gpgpu::cuda::opener;
  v.timer = "CUDA events";
  v.work = r.work;
  v.storage = kernels == CudaKernels::fused_half ? gpgpu::tlm::Storage::f16 : gpgpu::tlm::Storage::f32;
  v.make = [kernels](const gpgpu::tlm::Problem& problem, gpgpu::Session&) {
    return std::make_unique<CudaSolver>(problem, kernels);
  };
  v.check_fits = [kernels, name = std::string(r.name)](const gpgpu::tlm::Mesh& mesh, int steps, gpgpu::Session&) {
    gpgpu::cuda::require_device_memory(cuda_device_bytes(kernels, mesh, steps), "variant " + name + " on mesh " + mesh.str());
  };
  return v;
}

}  // namespace ch11
