// --compare-cuda: the CUDA solvers of kernels/cuda/ through their plain C++ interface.
#include "cuda_twin.hpp"

#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda_jacobi.hpp"

namespace ch08 {

std::string open_cuda_device(int index) { return gpgpu::cuda::open_device(index).name; }

CudaTwinRun run_cuda_twin(const Variant& v, const gpgpu::JacobiExperiment& exp, int block) {
  gpgpu::cuda_jacobi::LaunchConfig config;
  config.block_x = block;
  const auto solver = gpgpu::cuda_jacobi::make_solver(v.cuda_variant, exp.system(), config);  // checks limits
  return {gpgpu::cuda_jacobi::run_experiment(*solver, exp), solver->launch_text()};
}

}  // namespace ch08
