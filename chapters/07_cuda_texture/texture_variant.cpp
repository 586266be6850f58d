#include "texture_variant.hpp"

#include <memory>
#include <string>

#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "linear_solver.hpp"
#include "texture_solver.hpp"

namespace ch07 {

gpgpu::jacobi::VariantSpec texture_variant(const ch03::LaunchOptions& launch) {
  gpgpu::jacobi::VariantSpec v = ch03::cuda_variant("texture", "aligned 1D layout, x through texture objects (tex1Dfetch)",
                                                    "kernels/jacobi/cuda/07_texture.cu", "CUDA Texture");
  v.make = [&launch](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& gpu) {
    return std::make_unique<TextureSolver>(sys, launch.block_or(64), gpgpu::cuda::device_info(gpu));
  };
  v.check_fits = [memory = ch03::fits_device_memory("texture", ch03::linear_device_bytes)](
                     const gpgpu::jacobi::Grid& grid, gpgpu::Session& gpu) {
    const std::size_t floats = ch03::linear_padded_floats(grid);
    const std::size_t widest = gpgpu::cuda::device_info(gpu).texture1d_linear_max_floats;
    if (floats > widest)
      throw gpgpu::UsageError("variant texture: grid " + grid.str() + " needs a 1D texture of " + std::to_string(floats) +
                              " floats; this GPU allows " + std::to_string(widest) +
                              " (cudaDeviceGetTexture1DLinearMaxWidth)");
    memory(grid, gpu);
  };
  return v;
}

}  // namespace ch07
