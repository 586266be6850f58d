// Chapter 05 on a GPU (label cuda; skipped without one): the pitched kernel through chapter 05's
// host code at the awkward sizes against the CPU double-precision reference (among them 512 wide,
// where cudaMallocPitch adds no padding, and 70000 rows, more than gridDim.y holds), the Solver
// contract and the usage errors (variant_checks.hpp); the pitch is aligned for every width.
#include "gpgpu/jacobi/cuda/variant_checks.hpp"
#include "gpgpu/jacobi/cuda/pitched_solver.hpp"

namespace jc = gpgpu::jacobi::cuda;

GPGPU_CUDA_VARIANT_CHECKS(Ch05, ::testing::Values(jc::checks::Factory{"pitched", jc::pitched_variant}));

namespace {

TEST(Ch05Pitched, EveryRowStartsAligned) {
  for (int nx : {1, 100, 511, 513}) {
    const auto sys = gpgpu::jacobi::assemble_bidomain({nx, 3});
    const std::string launch = jc::checks::solver({"pitched", jc::pitched_variant}, sys)->launch();
    const std::size_t at = launch.find("pitch ");
    ASSERT_NE(at, std::string::npos) << launch;
    const int pitch = std::stoi(launch.substr(at + 6));
    EXPECT_GE(pitch, nx) << launch;
    EXPECT_EQ(pitch % 32, 0) << launch;  // 128 bytes: a warp's row segment starts a line
  }
}

}  // namespace
