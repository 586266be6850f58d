// Chapter 07 on a GPU (label cuda; skipped without one): the texture kernel through chapter 07's host
// code at the awkward sizes against the CPU double-precision reference, the Solver contract and the
// usage errors (variant_checks.hpp); a grid wider than the device's widest 1D linear texture is
// refused before anything is allocated, naming the limit.
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"
#include "gpgpu/jacobi/cuda/texture_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch07, ::testing::Values(jc::checks::Factory{"texture", jc::texture_variant}));

namespace {

TEST(Ch07Texture, RefusesAnXWiderThanTheWidestTexture) {
  const std::size_t widest = gpgpu::cuda::device_info(jc::checks::session()).texture1d_linear_max_floats;
  const int nx = 16384;
  const int ny = static_cast<int>(widest / nx + 1);  // one row more than the texture holds
  ASSERT_GT(jc::linear_padded_floats({nx, ny}), widest);
  try {
    jc::texture_variant({}).check_fits({nx, ny}, jc::checks::session());
    FAIL() << "a " << nx << "x" << ny << " grid was accepted";
  } catch (const gpgpu::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cudaDeviceGetTexture1DLinearMaxWidth"), std::string::npos) << e.what();
  }
}

TEST(Ch07Texture, LaunchNamesTheTwoTextureObjects) {
  const auto sys = gpgpu::jacobi::assemble_bidomain({100, 7});
  EXPECT_EQ(jc::checks::solver({"texture", jc::texture_variant}, sys)->launch(),
            "grid 11, block 64, ghost offset 128, 2 texture objects");
}

}  // namespace
