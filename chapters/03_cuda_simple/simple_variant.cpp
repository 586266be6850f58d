#include "simple_variant.hpp"

#include <memory>

#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"
#include "linear_solver.hpp"

namespace ch03 {

gpgpu::jacobi::VariantSpec simple_variant(const LaunchOptions& launch) {
  gpgpu::jacobi::VariantSpec v = cuda_variant("simple", "9 diagonals, x with nx+1 ghosts, 1D grid",
                                              "kernels/jacobi/cuda/03_simple.cu", "CUDA Simple");
  v.make = [&launch](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<LinearSolver>(sys, gpgpu::jacobi::simple_offset(sys.grid), launch.block_or(64),
                                          gpgpu::jacobi::cuda::launch_jacobi_simple);
  };
  v.check_fits = fits_device_memory("simple", linear_device_bytes);
  return v;
}

}  // namespace ch03
