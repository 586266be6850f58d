#include "pitched_variant.hpp"

#include <memory>
#include <utility>

#include "jacobi/cuda/launchers.hpp"
#include "pitched_solver.hpp"

namespace ch05 {

gpgpu::jacobi::VariantSpec pitched_variant(const ch03::LaunchOptions& launch) {
  gpgpu::jacobi::VariantSpec v = ch03::cuda_variant("pitched", "cudaMallocPitch, 2D grid of 1D blocks, 2 ghost rows",
                                                    "kernels/jacobi/cuda/05_pitched.cu", "CUDA 2D");
  v.make = [&launch](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<PitchedSolver>(sys, launch.block_or(64), gpgpu::jacobi::cuda::launch_jacobi_pitched);
  };
  v.check_fits = fits_pitched("pitched");
  return v;
}

std::function<void(const gpgpu::jacobi::Grid&, gpgpu::Session&)> fits_pitched(std::string variant, int stored) {
  return ch03::fits_device_memory(std::move(variant),
                                  [stored](const gpgpu::jacobi::Grid& g) { return pitched_device_bytes(g, stored); });
}

}  // namespace ch05
