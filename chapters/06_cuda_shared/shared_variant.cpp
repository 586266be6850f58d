// Chapter 06 adds no host code of its own: the shared-memory kernels run on chapter 05's pitched
// layout and 2D launch; only their launch functions differ (they ask for 3 x (block + 2) floats of
// shared memory, 06_shared.cu and 06_shared_paper.cu).
#include "shared_variant.hpp"

#include <memory>

#include "jacobi/cuda/launchers.hpp"
#include "pitched_solver.hpp"
#include "pitched_variant.hpp"

namespace ch06 {

gpgpu::jacobi::VariantSpec shared_variant(const ch03::LaunchOptions& launch) {
  gpgpu::jacobi::VariantSpec v = ch03::cuda_variant("shared", "pitched, x rows j-1..j+1 staged in shared memory",
                                                    "kernels/jacobi/cuda/06_shared.cu", "CUDA Shared");
  v.make = [&launch](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<ch05::PitchedSolver>(sys, launch.block_or(64), gpgpu::jacobi::cuda::launch_jacobi_shared);
  };
  v.check_fits = ch05::fits_pitched("shared");
  return v;
}

gpgpu::jacobi::VariantSpec shared_paper_variant(const ch03::LaunchOptions& launch) {
  gpgpu::jacobi::VariantSpec v = ch03::cuda_variant(
      "shared_paper", "pitched, x rows staged in shared memory as the paper loads them: own column, halo by the end threads",
      "kernels/jacobi/cuda/06_shared_paper.cu", "CUDA Shared");
  v.make = [&launch](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<ch05::PitchedSolver>(sys, launch.block_or(64),
                                                 gpgpu::jacobi::cuda::launch_jacobi_shared_paper);
  };
  v.check_fits = ch05::fits_pitched("shared_paper");
  return v;
}

}  // namespace ch06
