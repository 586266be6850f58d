// The CUDA originals of the four ported kernels, as variants of the same run: cuda_simple,
// cuda_aligned, cuda_shared and cuda_texture, each the variant its chapter (03, 04, 06, 07)
// registers, renamed. CMake compiles this file only in a build with CUDA (CUDA_SOURCES in
// CMakeLists.txt); without it the run says the cuda backend was not built, and on a machine without
// a GPU that it is missing, and the OpenCL variants run alone. The chapter then compares each
// OpenCL kernel with its original on the same GPU (port_report.hpp).
#include "aligned_variants.hpp"
#include "shared_variant.hpp"
#include "simple_variant.hpp"
#include "texture_variant.hpp"

namespace {

// The CUDA chapters' launch options at their defaults (blocks of 64 threads, the paper's and --wg's
// default): this chapter has no --block of its own. Static: the specs keep a reference to it.
const ch03::LaunchOptions kDefaultLaunch{};

gpgpu::jacobi::VariantSpec twin(gpgpu::jacobi::VariantSpec spec) {
  spec.info.description = "the CUDA original: " + spec.info.description;
  spec.info.name = "cuda_" + spec.info.name;
  return spec;
}

const gpgpu::jacobi::Registration kSimple{twin(ch03::simple_variant(kDefaultLaunch))};
const gpgpu::jacobi::Registration kAligned{twin(ch04::aligned_variant(kDefaultLaunch))};
const gpgpu::jacobi::Registration kShared{twin(ch06::shared_variant(kDefaultLaunch))};
const gpgpu::jacobi::Registration kTexture{twin(ch07::texture_variant(kDefaultLaunch))};

}  // namespace
