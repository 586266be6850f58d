// Chapter 12's CUDA convolution kernels, unchanged, run on the CPU by the emulation of the CUDA
// thread model (kernels/blas/cuda/tests/level12_emulation.hpp), with their launchers' shapes and
// the filter copied where cudaMemcpyToSymbol puts it, against problems/conv's FP64 reference within
// γ_{k²}, output poisoned: images smaller than the filter, of one row or column, odd, past a block
// in neither or both directions, k from 1 to 31; the separable kernel's two passes on rank-one
// filters at the same sizes; step 7 (and step 5) bit for bit against step 4, whose order of
// products they keep. Label cpu: no GPU needed.
#include "blas/cuda/tests/level12_emulation.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/routine_checks.hpp"

#define GPGPU_CUDA_EMULATION
#include "../12_01_conv_naive.cu"
#include "../12_02_conv_constant.cu"
#include "../12_03_conv_tiled.cu"
#include "../12_04_conv_register.cu"
#include "../12_05_conv_float4.cu"
#include "../12_06_conv_separable.cu"
#include "../12_07_conv_aligned.cu"

namespace gpgpu::conv::cuda {
namespace {

// The filter where cudaMemcpyToSymbol puts it, the rest of the array poisoned.
template <std::size_t N>
void copy_filter(const blas::Case& c, float (&symbol)[N]) {
  std::fill(std::begin(symbol), std::end(symbol), std::numeric_limits<float>::quiet_NaN());
  std::copy(c.b.begin(), c.b.end(), symbol);
}

// A kernel that compiles the filter side in (steps 4, 5, 7): `kernel(std::integral_constant<int, K>{})`
// runs the instance for K = a.k on the grid whose threads make rows_per_thread x cols_per_thread outputs.
template <typename Kernel>
void launch_compiled_k(const ConvArgs& a, const char* name, int rows_per_thread, int cols_per_thread, Kernel&& kernel) {
  with_filter_side(a.k, name, [&](auto k) {
    emu::launch_with_barriers(conv_grid(a, rows_per_thread, cols_per_thread), dim3(kBlockX, kBlockY), [&] { kernel(k); });
  });
}

std::vector<float> emulate(const std::string& kernel, const blas::Case& c) {
  std::vector<float> out(static_cast<std::size_t>(c.m * c.n), std::numeric_limits<float>::quiet_NaN());
  const ConvArgs a{c.a.data(), c.b.data(), out.data(), static_cast<int>(c.m), static_cast<int>(c.n), static_cast<int>(c.k)};
  const dim3 grid = conv_grid(a), block(kBlockX, kBlockY);
  if (kernel == "naive") {
    emu::launch(grid, block, false, [&] { conv_naive(a); });
  } else if (kernel == "constant") {
    copy_filter(c, filter_constant);
    emu::launch(grid, block, false, [&] { conv_constant(a); });
  } else if (kernel == "register") {
    copy_filter(c, filter_register);
    launch_compiled_k(a, "conv_register", kRegRows, 1, [&](auto k) { conv_register<decltype(k)::value>(a); });
  } else if (kernel == "float4") {
    copy_filter(c, filter_float4);
    launch_compiled_k(a, "conv_float4", kFloat4Rows, 4, [&](auto k) { conv_float4<decltype(k)::value>(a); });
  } else if (kernel == "aligned") {
    copy_filter(c, filter_aligned);
    launch_compiled_k(a, "conv_aligned", kAlignedRows, 4, [&](auto k) { conv_aligned<decltype(k)::value>(a); });
  } else {
    copy_filter(c, filter_tiled);
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

// The two passes of 12_06_conv_separable.cu on rank-one filters (the factors where cudaMemcpyToSymbol
// puts them, the intermediate and the output poisoned), against the same 2D FP64 reference within
// the separable case's γ_{max(k², 2k+2)}, at the same awkward sizes.
std::vector<float> emulate_separable(const blas::Case& c) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> tmp(static_cast<std::size_t>(c.m * c.n), nan), out(tmp.size(), nan);
  const auto k = static_cast<std::ptrdiff_t>(c.k);
  std::fill(std::begin(factor_col), std::end(factor_col), nan);
  std::fill(std::begin(factor_row), std::end(factor_row), nan);
  std::copy(c.factors.begin(), c.factors.begin() + k, factor_col);
  std::copy(c.factors.begin() + k, c.factors.end(), factor_row);
  const SeparableArgs a{c.a.data(), c.factors.data(), tmp.data(), out.data(), static_cast<int>(c.m), static_cast<int>(c.n),
                        static_cast<int>(c.k)};
  emu::launch_with_barriers(separable_row_grid(a), dim3(kBlockX, kBlockY), [&] { conv_rows(a); });
  emu::launch_with_barriers(separable_column_grid(a), dim3(kBlockX, kBlockY), [&] { conv_columns(a); });
  return out;
}

TEST(ConvSeparable, WithinTheBoundAtAwkwardSizes) {
  for (blas::RoutineSizes s : blas::routine_checks::awkward_sizes(blas::Routine::conv2d, blas::routine_checks::Reach::small)) {
    s.separable = true;
    const blas::Case c = blas::make_case(blas::Routine::conv2d, s, 31);
    ASSERT_EQ(c.factors.size(), static_cast<std::size_t>(2 * c.k));
    const Verification v = blas::compare(emulate_separable(c), blas::reference(c));
    EXPECT_TRUE(v.pass) << "separable on " << c.size_str() << ": " << v.summary();
  }
}

// The bound would not hide a pass that used the wrong factor: u and v swapped fail it (the
// filter is not symmetric), so the test above can fail.
TEST(ConvSeparable, SwappedFactorsFail) {
  blas::RoutineSizes s;
  s.image = {67, 129, 5};
  s.separable = true;
  blas::Case c = blas::make_case(blas::Routine::conv2d, s, 31);
  std::rotate(c.factors.begin(), c.factors.begin() + c.k, c.factors.end());
  EXPECT_FALSE(blas::compare(emulate_separable(c), blas::reference(c)).pass);
}

// Step 7 keeps step 4's order of each output's k² products (filter rows p, then q, from 0): the
// same bits, at every awkward size and through both of its paths (16-byte loads and stores where
// cols % 4 == 0, float by float elsewhere). Step 5 keeps it too.
TEST(ConvAligned, SameBitsAsTheRegisterTile) {
  int vector_widths = 0;
  for (const blas::RoutineSizes& s : blas::routine_checks::awkward_sizes(blas::Routine::conv2d, blas::routine_checks::Reach::small)) {
    const blas::Case c = blas::make_case(blas::Routine::conv2d, s, 37);
    vector_widths += c.n % 4 == 0;
    const std::vector<float> aligned = emulate("aligned", c), reg = emulate("register", c), float4 = emulate("float4", c);
    ASSERT_EQ(aligned.size(), reg.size());
    EXPECT_EQ(std::memcmp(aligned.data(), reg.data(), sizeof(float) * reg.size()), 0) << "aligned on " << c.size_str();
    EXPECT_EQ(std::memcmp(float4.data(), reg.data(), sizeof(float) * reg.size()), 0) << "float4 on " << c.size_str();
  }
  EXPECT_GE(vector_widths, 2);  // the 16-byte path ran
}

// The bit comparison can fail: the same kernel with the filter transposed differs.
TEST(ConvAligned, ATransposedFilterDiffers) {
  blas::RoutineSizes s;
  s.image = {37, 132, 3};
  blas::Case c = blas::make_case(blas::Routine::conv2d, s, 37);
  const std::vector<float> reg = emulate("register", c);
  for (std::int64_t p = 0; p < c.k; ++p)
    for (std::int64_t q = p + 1; q < c.k; ++q) std::swap(c.b[p * c.k + q], c.b[q * c.k + p]);
  const std::vector<float> aligned = emulate("aligned", c);
  EXPECT_NE(std::memcmp(aligned.data(), reg.data(), sizeof(float) * reg.size()), 0);
}

INSTANTIATE_TEST_SUITE_P(Ch12, ConvKernel, ::testing::Values("naive", "constant", "tiled", "register", "float4", "aligned"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace gpgpu::conv::cuda
