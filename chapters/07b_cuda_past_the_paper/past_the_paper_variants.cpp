#include "past_the_paper_variants.hpp"

#include <memory>

#include "gpgpu/cuda/opener.hpp"
#include "jacobi/cuda/launchers.hpp"
#include "past_the_paper_solvers.hpp"
#include "pitched_solver.hpp"
#include "pitched_variant.hpp"

namespace ch07b {

using gpgpu::jacobi::LinearSystem;
using gpgpu::jacobi::VariantSpec;

VariantSpec readonly_variant(const ch03::LaunchOptions& launch) {
  VariantSpec v = ch03::cuda_variant("readonly", "pitched, every load read-only (__ldg)",
                                     "kernels/jacobi/cuda/07b_readonly.cu", "");
  v.make = [&launch](const LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<ch05::PitchedSolver>(sys, launch.block_or(64), gpgpu::jacobi::cuda::launch_jacobi_readonly);
  };
  v.check_fits = ch05::fits_pitched("readonly");
  return v;
}

VariantSpec tiled2d_variant(const ch03::LaunchOptions& launch) {
  VariantSpec v = ch03::cuda_variant("tiled2d", "2D blocks, x tile with halo in shared memory",
                                     "kernels/jacobi/cuda/07b_tiled2d.cu", "");
  v.make = [&launch](const LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<Tiled2dSolver>(sys, launch.block_or(32), launch.block_y > 0 ? launch.block_y : 8);
  };
  v.check_fits = ch05::fits_pitched("tiled2d");
  return v;
}

VariantSpec multirow_variant(const ch03::LaunchOptions& launch) {
  VariantSpec v = ch03::cuda_variant("multirow", "float4 per thread, several rows per thread, x rows in registers",
                                     "kernels/jacobi/cuda/07b_multirow.cu", "");
  v.make = [&launch](const LinearSystem& sys, gpgpu::Session& gpu) {
    return std::make_unique<RowWalkingSolver>(sys, RowWalkingSolver::Storage::nine_diagonals, launch,
                                              gpgpu::cuda::device_info(gpu).sm_count);
  };
  v.check_fits = ch05::fits_pitched("multirow");
  return v;
}

VariantSpec symmetric_variant(const ch03::LaunchOptions& launch) {
  VariantSpec v = ch03::cuda_variant("symmetric", "multirow with 5 of the 9 diagonals (symmetric storage)",
                                     "kernels/jacobi/cuda/07b_symmetric.cu", "", "jacobi9_symmetric");
  v.make = [&launch](const LinearSystem& sys, gpgpu::Session& gpu) {
    return std::make_unique<RowWalkingSolver>(sys, RowWalkingSolver::Storage::symmetric, launch,
                                              gpgpu::cuda::device_info(gpu).sm_count);
  };
  v.check_fits = ch05::fits_pitched("symmetric", 5);
  return v;
}

}  // namespace ch07b
