// Chapter 04 adds no host code of its own: chapter 03's LinearSolver takes the ghost offset as a
// parameter, and this chapter passes the aligned one and the aligned kernel.
#include "aligned_variants.hpp"

#include <memory>
#include <string>

#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"
#include "linear_solver.hpp"

namespace ch04 {
namespace {

gpgpu::jacobi::VariantSpec aligned_to(int multiple, std::string name, std::string description, std::string paper_name,
                                      const ch03::LaunchOptions& launch) {
  gpgpu::jacobi::VariantSpec v = ch03::cuda_variant(name, std::move(description), "kernels/jacobi/cuda/04_aligned.cu",
                                                    std::move(paper_name));
  v.make = [&launch, multiple](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<ch03::LinearSolver>(sys, gpgpu::jacobi::aligned_offset(sys.grid, multiple),
                                                launch.block_or(64), gpgpu::jacobi::cuda::launch_jacobi_aligned);
  };
  v.check_fits = ch03::fits_device_memory(name, ch03::linear_device_bytes);
  return v;
}

}  // namespace

gpgpu::jacobi::VariantSpec aligned_variant(const ch03::LaunchOptions& launch) {
  return aligned_to(kPaperAlignment, "aligned", "ghost offset a multiple of 16 floats (the paper's 64-B half-warp segment)",
                    "CUDA Aligned", launch);
}

gpgpu::jacobi::VariantSpec aligned32_variant(const ch03::LaunchOptions& launch) {
  return aligned_to(kLineAlignment, "aligned32", "ghost offset a multiple of 32 floats (today's 128-B line)", "",
                    launch);
}

}  // namespace ch04
