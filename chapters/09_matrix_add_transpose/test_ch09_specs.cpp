// Chapter 09's variants, checked without a device (label cpu): every OpenCL variant ports a CUDA
// variant of the same operation (so the run can print their ratio), the two printed kernels run
// only when named, the CUDA kernels refuse what their grids cannot cover, and an OpenCL kernel
// whose work-groups the device's limits do not allow (or a double run on a device without fp64) is
// a limitation with its reason, judged here on made-up limits.
#include <algorithm>

#include <gtest/gtest.h>

#include "cuda_variants.hpp"
#include "opencl_variants.hpp"

namespace {

using gpgpu::matrix::ElementType;
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
  EXPECT_TRUE(ch09::cuda_limitation("cuda_transpose_tile_multi", Shape{65535 * 32 + 1, 1}).has_value());
  // 64-row tiles: 65535 x 64 rows fit.
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_tile_vec4", Shape{65535 * 64, 1}).has_value());
  EXPECT_TRUE(ch09::cuda_limitation("cuda_transpose_tile_vec4", Shape{65535 * 64 + 1, 1}).has_value());
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_tile_panels", Shape{65535 * 64, 1}).has_value());
  EXPECT_TRUE(ch09::cuda_limitation("cuda_transpose_tile_panels", Shape{65535 * 64 + 1, 1}).has_value());
  // The persistent transpose's grid is one row of resident blocks, whatever the shape.
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_persistent", Shape{65535 * 64 + 1, 1}).has_value());
  // So is the TMA transpose's (its limitation, which needs the device, sends the shapes TMA cannot
  // take to step 12's kernel and its limit).
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_tma", Shape{65535 * 64 + 1, 1}).has_value());
  // The element-per-thread kernels loop over the rows beyond the grid.
  EXPECT_FALSE(ch09::cuda_limitation("cuda_add_rowmajor", Shape{65535 * 32 + 1, 1}).has_value());
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_naive", Shape{1, 65535 * 32 + 1}).has_value());
  // The printed tile has one width.
  EXPECT_TRUE(ch09::cuda_limitation("cuda_transpose_tile_as_printed", Shape{16, 17}).has_value());
  EXPECT_FALSE(ch09::cuda_limitation("cuda_transpose_tile_as_printed", Shape{40, 40}).has_value());
}

TEST(Ch09Specs, AnOpenClTileLargerThanTheKernelMayHaveIsALimitation) {
  // A driver that allows these kernels work-groups of at most 256 work-items: the 32 x 32 tiles
  // cannot run, the 32 x 8 ones can.
  const ch09::ClKernelLimits small{true, 256};
  for (const char* name : {"cl_transpose_tile", "cl_transpose_tile_padded"})
    EXPECT_EQ(ch09::cl_limitation(ch09::cl_variant(name), ElementType::f32, small),
              "needs work-groups of 1024 work-items; the device runs this kernel in at most 256")
        << name;
  for (const char* name : {"cl_transpose_tile_multi", "cl_transpose_tile_vec4", "cl_transpose_tile_panels",
                           "cl_transpose_persistent", "cl_transpose_strip", "cl_add_rowmajor", "cl_add_vec4",
                           "cl_transpose_naive"})
    EXPECT_FALSE(ch09::cl_limitation(ch09::cl_variant(name), ElementType::f32, small).has_value()) << name;
  // The copy launches no kernel: only double precision can stop it.
  EXPECT_FALSE(ch09::cl_limitation(ch09::cl_variant("cl_copy"), ElementType::f32, {true, 0}).has_value());
  // A device that allows 1024 runs them all.
  for (const auto& v : ch09::opencl_variants())
    EXPECT_FALSE(ch09::cl_limitation(ch09::cl_variant(v.info.name), ElementType::f64, {true, 1024}).has_value()) << v.info.name;
}

TEST(Ch09Specs, DoubleOnADeviceWithoutFp64IsALimitation) {
  const ch09::ClKernelLimits no_fp64{false, 1024};
  for (const auto& v : ch09::opencl_variants()) {
    const ch09::ClVariant& cl = ch09::cl_variant(v.info.name);
    EXPECT_EQ(ch09::cl_limitation(cl, ElementType::f64, no_fp64), "the device has no double precision (cl_khr_fp64)")
        << cl.name;
    EXPECT_FALSE(ch09::cl_limitation(cl, ElementType::f32, no_fp64).has_value()) << cl.name;
  }
}

}  // namespace
