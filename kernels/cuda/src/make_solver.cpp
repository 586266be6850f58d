// make_solver(): checks the limits that turn into one-line usage errors (memory, texture width,
// block size) BEFORE anything is allocated, then builds the variant's solver.
#include <string>

#include "gpgpu/cuda/device.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "ping_pong.hpp"
#include "solvers.hpp"

namespace gpgpu::cuda_jacobi {

void check_block(const VariantInfo& info, int block_x, int block_y) {
  if (block_x < 1 || block_y < 1 || static_cast<long long>(block_x) * block_y > 1024)
    throw UsageError("variant " + std::string(info.name) + ": a block of " + std::to_string(block_x) + " x " +
                     std::to_string(block_y) + " threads; CUDA allows 1 to 1024 threads per block");
}

double device_bytes(std::string_view variant, const Grid& grid) {
  const VariantInfo& info = variant_info(variant);
  const double n = static_cast<double>(grid.nodes());
  if (variant == "simple" || variant == "aligned" || variant == "aligned32" || variant == "texture")
    return 4.0 * (10.0 * n + 2.0 * static_cast<double>(linear_padded_floats(grid) + 1024));
  const double arrays = (info.work == "jacobi9_symmetric" ? 5.0 : 9.0) + 1.0 + 2.0;
  // cudaMallocPitch pads a row to at most 512 B more; every array has 2 * 2 ghost rows.
  return arrays * 4.0 * (grid.nx + 128.0) * (grid.ny + 4.0);
}

void check_limits(std::string_view variant, const Grid& grid) {
  (void)variant_info(variant);  // unknown names are usage errors too
  cuda::require_device_memory(device_bytes(variant, grid), "variant " + std::string(variant) + " on grid " + grid.str());
  if (variant == "texture") {
    const TextureLimits limits = texture_limits();
    if (linear_padded_floats(grid) > limits.max_floats)
      throw UsageError("variant texture: grid " + grid.str() + " needs a 1D texture of " +
                       std::to_string(linear_padded_floats(grid)) + " floats; this GPU allows " +
                       std::to_string(limits.max_floats) + " (cudaDeviceGetTexture1DLinearMaxWidth)");
  }
}

std::unique_ptr<Solver> make_solver(std::string_view variant, const LinearSystem& sys, const LaunchConfig& config) {
  const VariantInfo& info = variant_info(variant);
  check_limits(variant, sys.grid);
  if (variant == "simple") return make_linear_solver(info, sys, config, LinearKind::simple);
  if (variant == "aligned") return make_linear_solver(info, sys, config, LinearKind::aligned16);
  if (variant == "aligned32") return make_linear_solver(info, sys, config, LinearKind::aligned32);
  if (variant == "texture") return make_linear_solver(info, sys, config, LinearKind::texture);
  if (variant == "pitched") return make_pitched_solver(info, sys, config, PitchedKind::pitched);
  if (variant == "shared") return make_pitched_solver(info, sys, config, PitchedKind::shared);
  if (variant == "readonly") return make_pitched_solver(info, sys, config, PitchedKind::readonly);
  if (variant == "tiled2d") return make_pitched_solver(info, sys, config, PitchedKind::tiled2d);
  if (variant == "multirow") return make_pitched_solver(info, sys, config, PitchedKind::multirow);
  return make_pitched_solver(info, sys, config, PitchedKind::symmetric);
}

VariantResult run_experiment(Solver& solver, const JacobiExperiment& exp) {
  const CommonOptions& opt = exp.options();
  VariantResult result;
  result.samples = repeat_runs(opt, [&] {
    solver.upload(exp.initial_guess());
    return solver.run(opt.iters, static_cast<float>(opt.omega));
  });
  result.solution = solver.download();
  return result;
}

}  // namespace gpgpu::cuda_jacobi
