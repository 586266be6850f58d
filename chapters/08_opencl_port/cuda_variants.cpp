// The CUDA originals of the four ported kernels: each the variant its chapter (03, 04, 06, 07) runs,
// renamed. CMake compiles this file only in a build with CUDA; on a machine without a GPU the run
// says CUDA is missing, and the OpenCL variants run alone.
#include "cuda_variants.hpp"

#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

namespace ch08 {

std::vector<gpgpu::jacobi::Variant> cuda_variants() {
  namespace jc = gpgpu::jacobi::cuda;
  // The CUDA chapters' launch options at their defaults: this chapter has no --block of its own.
  // Static: the variants keep a reference to it.
  static const jc::LaunchOptions kDefaultLaunch{};
  std::vector<gpgpu::jacobi::Variant> twins{jc::simple_variant(kDefaultLaunch), jc::aligned_variant(kDefaultLaunch),
                                            jc::shared_variant(kDefaultLaunch), jc::texture_variant(kDefaultLaunch)};
  for (gpgpu::jacobi::Variant& v : twins) {
    v.info.description = "the CUDA original: " + v.info.description;
    v.info.name = "cuda_" + v.info.name;
  }
  return twins;
}

}  // namespace ch08
