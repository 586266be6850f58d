// Chapter 07's host code: its variant, the texture objects over chapter 04's layout, and the
// launch that reads the current iterate through its texture object.
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

#include <memory>
#include <string>

#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace gpgpu::jacobi::cuda {

//! [variant]
Variant texture_variant(const LaunchOptions& launch) {
  Variant v = cuda_variant("texture", "aligned 1D layout, x through texture objects (tex1Dfetch)",
                           "kernels/jacobi/cuda/07_texture.cu", "CUDA Texture");
  v.make = [&launch](const LinearSystem& sys, Session& gpu) {
    return std::make_unique<TextureSolver>(sys, launch.block_or(64), gpgpu::cuda::device_info(gpu));
  };
  v.check_fits = [memory = fits_device_memory("texture", linear_device_bytes)](const Grid& grid, Session& gpu) {
    const std::size_t floats = linear_padded_floats(grid);
    const std::size_t widest = gpgpu::cuda::device_info(gpu).texture1d_linear_max_floats;
    if (floats > widest)
      throw UsageError("variant texture: grid " + grid.str() + " needs a 1D texture of " + std::to_string(floats) +
                       " floats; this GPU allows " + std::to_string(widest) + " (cudaDeviceGetTexture1DLinearMaxWidth)");
    memory(grid, gpu);
  };
  return v;
}
//! [variant]

//! [textures]
TextureSolver::TextureSolver(const LinearSystem& sys, int block, const gpgpu::cuda::DeviceInfo& device)
    : LinearSolver(sys, aligned_offset(sys.grid, kLineAlignment), block, nullptr,
                   device.texture_alignment) {
  for (int b = 0; b < 2; ++b)
    tex_[static_cast<std::size_t>(b)] = gpgpu::cuda::TextureObject(padded(b), padded_floats(), device.texture_alignment,
                                                                   device.texture1d_linear_max_floats);
}

void TextureSolver::step(int in, float omega) {
  const LinearArgs a = args(in, omega);  // the input is the texture object over iterate `in`
  launch_jacobi_texture({a.A, a.f, tex_[static_cast<std::size_t>(in)].get(), a.x_new, a.nx, a.nodes, a.offset, a.omega},
                            block(), nullptr);
}
//! [textures]

std::string TextureSolver::launch() const { return LinearSolver::launch() + ", 2 texture objects"; }

}  // namespace gpgpu::jacobi::cuda
