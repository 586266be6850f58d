// Chapter 12's CUDA convolution kernels, unchanged, run on the CPU by the emulation of the CUDA
// thread model (kernels/blas/cuda/tests/level12_emulation.hpp), with their launchers' shapes and
// the filter copied where cudaMemcpyToSymbol puts it, against problems/conv's FP64 reference within
// γ_{k²}, output poisoned: images smaller than the filter, of one row or column, odd, past a block
// in neither or both directions, k from 1 to 31. Label cpu: no GPU needed.
#include "blas/cuda/tests/level12_emulation.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/routine_checks.hpp"

#define GPGPU_CUDA_EMULATION
#include "../12_conv_naive.cu"
#include "../12_conv_constant.cu"
#include "../12_conv_tiled.cu"
#include "../12_conv_register.cu"
#include "../12_conv_float4.cu"

namespace gpgpu::conv::cuda {
namespace {

std::vector<float> emulate(const std::string& kernel, const blas::Case& c) {
  std::vector<float> out(static_cast<std::size_t>(c.m * c.n), std::numeric_limits<float>::quiet_NaN());
  const ConvArgs a{c.a.data(), c.b.data(), out.data(), static_cast<int>(c.m), static_cast<int>(c.n), static_cast<int>(c.k)};
  const dim3 grid = conv_grid(a), block(kBlockX, kBlockY);
  if (kernel == "naive") {
    emu::launch(grid, block, false, [&] { conv_naive(a); });
  } else if (kernel == "constant") {
    std::fill(std::begin(filter_constant), std::end(filter_constant), std::numeric_limits<float>::quiet_NaN());
    std::copy(c.b.begin(), c.b.end(), filter_constant);
    emu::launch(grid, block, false, [&] { conv_constant(a); });
  } else if (kernel == "register") {
    std::fill(std::begin(filter_register), std::end(filter_register), std::numeric_limits<float>::quiet_NaN());
    std::copy(c.b.begin(), c.b.end(), filter_register);
    const dim3 reg_grid = conv_grid(a, kRegRows);
    with_filter_side(a.k, "conv_register", [&](auto k) {
      emu::launch_with_barriers(reg_grid, block, [&] { conv_register<decltype(k)::value>(a); });
    });
  } else if (kernel == "float4") {
    std::fill(std::begin(filter_float4), std::end(filter_float4), std::numeric_limits<float>::quiet_NaN());
    std::copy(c.b.begin(), c.b.end(), filter_float4);
    const dim3 float4_grid = conv_grid(a, kFloat4Rows, 4);
    with_filter_side(a.k, "conv_float4", [&](auto k) {
      emu::launch_with_barriers(float4_grid, block, [&] { conv_float4<decltype(k)::value>(a); });
    });
  } else {
    std::fill(std::begin(filter_tiled), std::end(filter_tiled), std::numeric_limits<float>::quiet_NaN());
    std::copy(c.b.begin(), c.b.end(), filter_tiled);
    emu::launch_with_barriers(grid, block, [&] { conv_tiled(a); });
  }
  return out;
}

class ConvKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(ConvKernel, WithinTheBoundAtAwkwardSizes) {
  for (const blas::RoutineSizes& s : blas::routine_checks::awkward_sizes(blas::Routine::conv2d, blas::routine_checks::Reach::small)) {
    const blas::Case c = blas::make_case(blas::Routine::conv2d, s, 29);
    const Verification v = blas::compare(emulate(GetParam(), c), blas::reference(c));
    EXPECT_TRUE(v.pass) << GetParam() << " on " << c.size_str() << ": " << v.summary();
  }
}

INSTANTIATE_TEST_SUITE_P(Ch12, ConvKernel, ::testing::Values("naive", "constant", "tiled", "register", "float4"), [](const auto& info) { return info.param; });

}  // namespace
}  // namespace gpgpu::conv::cuda
