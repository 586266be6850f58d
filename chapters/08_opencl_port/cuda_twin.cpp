// --compare-cuda: the CUDA solvers of kernels/cuda/ through their plain C++ interface.
#include "cuda_twin.hpp"

#include "gpgpu/cuda/device.hpp"
#include "gpgpu/cuda_jacobi.hpp"

namespace ch08 {

std::string open_cuda_device(int index) { return gpgpu::cuda::open_device(index).name; }

CudaTwinRun run_cuda_twin(const Variant& v, const gpgpu::JacobiExperiment& exp, int block) {
  const gpgpu::CommonOptions& opt = exp.options();
  gpgpu::cuda_jacobi::LaunchConfig config;
  config.block_x = block;
  const auto solver = gpgpu::cuda_jacobi::make_solver(v.cuda_variant, exp.system(), config);  // checks limits
  CudaTwinRun run;
  run.result.samples = gpgpu::repeat_runs(opt, [&] {
    solver->upload(exp.initial_guess());
    return solver->run(opt.iters, static_cast<float>(opt.omega));
  });
  run.result.solution = solver->download();
  run.launch = solver->launch_text();
  return run;
}

}  // namespace ch08
