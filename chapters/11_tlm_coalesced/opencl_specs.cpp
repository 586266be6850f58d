#include "opencl_specs.hpp"

#include <memory>

#include "gpgpu/opencl/opener.hpp"

namespace ch11 {

gpgpu::tlm::VariantSpec opencl_variant(OpenClKernels kernels) {
  const bool fused = kernels == OpenClKernels::fused;
  const std::string file = fused ? "kernels/tlm/opencl/11_fused.cl" : "kernels/tlm/opencl/11_coalesced.cl";
  gpgpu::tlm::VariantSpec v;
  v.info = {fused ? "opencl_fused" : "opencl_coalesced", gpgpu::Backend::opencl,
            fused ? "one pull-scatter-write kernel, FP32 (port of 11_fused.cu)"
                  : "scatter + connect kernels, 64-node segments (port of 11_coalesced.cu)",
            file, fused ? "" : "OpenCL (Fig. 11)"};
  v.opener = gpgpu::ocl::opener;
  v.timer = "OpenCL profiling events";
  v.work = fused ? "scn_fused" : "scn_two_kernel";
  v.make = [kernels, file](const gpgpu::tlm::Problem& problem, gpgpu::Session& session) {
    gpgpu::ocl::Runtime& runtime = gpgpu::ocl::runtime_of(session);
    const cl::Program& program = runtime.program(gpgpu::tlm::opencl_program(file));
    return std::make_unique<OpenClSolver>(runtime, program, problem, kernels);
  };
  v.check_fits = [kernels, name = v.info.name](const gpgpu::tlm::Mesh& mesh, int steps, gpgpu::Session& session) {
    const OpenClBytes need = opencl_device_bytes(kernels, gpgpu::tlm::Storage::f32, mesh, steps);
    gpgpu::ocl::require_device_memory(gpgpu::ocl::runtime_of(session).info(), need.total, need.largest,
                                      "variant " + name + " on mesh " + mesh.str());
  };
  return v;
}

}  // namespace ch11
