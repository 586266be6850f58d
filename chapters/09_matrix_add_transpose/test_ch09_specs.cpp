// Chapter 09's variant records, checked without a device (label cpu): every OpenCL variant ports a
// CUDA variant of the same operation (so the run can print their ratio), the two printed kernels
// run only when named, and the CUDA kernels refuse what their grids cannot cover.
#include <gtest/gtest.h>

#include "cuda_matrix.hpp"
#include "opencl_matrix.hpp"

namespace {

using gpgpu::matrix::Shape;

TEST(Ch09Specs, EveryOpenClVariantPortsACudaVariantOfTheSameOperation) {
  const auto cuda = ch09::cuda_variants();
  for (const auto& cl : ch09::opencl_variants()) {
    ASSERT_FALSE(cl.ports.empty()) << cl.info.name;
    const auto it = std::find_if(cuda.begin(), cuda.end(), [&](const auto& c) { return c.info.name == cl.ports; });
    ASSERT_NE(it, cuda.end()) << cl.info.name << " ports " << cl.ports << ", which is no CUDA variant";
    EXPECT_EQ(it->op, cl.op) << cl.info.name;
    EXPECT_TRUE(it->info.in_all) << cl.info.name << " ports a variant that runs only when named";
  }
}

TEST(Ch09Specs, ThePrintedKernelsRunOnlyWhenNamed) {
  for (const auto& v : ch09::cuda_variants()) {
    const bool printed = v.info.name == "cuda_add_shared_paper" || v.info.name == "cuda_transpose_tile_as_printed";
    EXPECT_EQ(v.info.in_all, !printed) << v.info.name;
  }
}

TEST(Ch09Specs, CudaKernelsWithoutARowLoopRefuseTallerGrids) {
  // One 32-row tile per block row: 65535 x 32 rows fit gridDim.y, one more row does not.
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_tile", Shape{65535 * 32, 1}).has_value());
  EXPECT_TRUE(ch09::cuda_limitation("cuda_transpose_tile", Shape{65535 * 32 + 1, 1}).has_value());
  EXPECT_TRUE(ch09::cuda_limitation("cuda_add_shared", Shape{65535 * 32 + 1, 1}).has_value());
  // The element-per-thread kernels loop over the rows beyond the grid.
  EXPECT_FALSE(ch09::cuda_limitation("cuda_add_rowmajor", Shape{65535 * 32 + 1, 1}).has_value());
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_naive", Shape{1, 65535 * 32 + 1}).has_value());
  // The printed tile has one width.
  EXPECT_TRUE(ch09::cuda_limitation("cuda_transpose_tile_as_printed", Shape{16, 17}).has_value());
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_tile_as_printed", Shape{40, 40}).has_value());
}

}  // namespace
