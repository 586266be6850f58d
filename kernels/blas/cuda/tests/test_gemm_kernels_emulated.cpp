// Chapter 10's CUDA kernels, unchanged, run on the CPU by the emulation of the CUDA thread model
// (kernels/matrix/cuda/tests/matrix_emulation.hpp: threads of a block as fibers meeting at
// __syncthreads(), static shared memory; cp.async as a synchronous copy; WMMA as whole-matrix
// fragments, wmma_emulation.hpp), against the FP64
// reference within γ_k|A||B|, in float and double, with C poisoned. It needs no GPU, so it runs
// everywhere (label cpu) and catches wrong indices, missing bounds, partial tiles, the unaligned
// path of the vector loads and barrier placement before a GPU sees the code. It says nothing about
// the memory model of the real cp.async (the sanitizer's racecheck and synccheck do, on the GPU).
#include "matrix/cuda/tests/matrix_emulation.hpp"

#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"

using std::fma;

#define GPGPU_CUDA_EMULATION
#include "../10_01_naive.cu"
#include "../10_02_tile16.cu"
#include "../10_03_blocktile_1d.cu"
#include "../10_04_blocktile_2d.cu"
#include "../10_05_vectorized.cu"
#include "../10_06_warptile.cu"
#include "../10_07_double_buffer.cu"
#include "../10_09_three_stage.cu"
#include "../10_10_prefetch.cu"
#include "wmma_emulation.hpp"  // before the tensor-core kernel: nvcuda::wmma on the CPU
#include "../10_08_tf32_wmma.cu"

namespace gpgpu::blas::cuda {
namespace {

namespace checks = gpgpu::blas::checks;

// Step 9's configuration `config` (10_09_three_stage.cu), launched as launch_three_stage_config does.
template <typename T>
void emulate_three_stage(const GemmArgs<T>& g, std::size_t config, bool aligned) {
  with_three_stage_config<T>(config, [&](auto index) {
    constexpr TileConfig c = ThreeStageConfigs<T>::all[decltype(index)::value];
    const auto kernel = aligned ? three_stage_kernel<T, decltype(index)::value, true>()
                                : three_stage_kernel<T, decltype(index)::value, false>();
    emu::launch_with_barriers(dim3(blocks_for(g.n, c.bn), blocks_for(g.m, c.bm)), dim3(kThreeStageThreads), [&] { kernel(g); });
  });
}

// Step 10's configuration `config` (10_10_prefetch.cu), launched as launch_prefetch_config does.
template <typename T>
void emulate_prefetch(const GemmArgs<T>& g, std::size_t config, bool aligned) {
  with_prefetch_config<T>(config, [&](auto index) {
    constexpr TileConfig c = PrefetchConfigs<T>::all[decltype(index)::value];
    const auto kernel = aligned ? prefetch_kernel<T, decltype(index)::value, true>()
                                : prefetch_kernel<T, decltype(index)::value, false>();
    emu::launch_with_barriers(dim3(blocks_for(g.n, c.bn), blocks_for(g.m, c.bm)), dim3(kPrefetchThreads), [&] { kernel(g); });
  });
}

// The launches of launchers.hpp, on the emulation. `aligned`: the template the launcher picks
// (true only where k and n are multiples of the vector width; false is always correct).
// "three_stage" is step 9's default configuration, "three_stage/2" its third; "prefetch" and
// "prefetch/N" the same for step 10.
template <typename T>
void emulate(const std::string& kernel, const GemmArgs<T>& g, bool aligned) {
  if (kernel.starts_with("prefetch")) {
    const std::size_t slash = kernel.find('/');
    emulate_prefetch(g, slash == std::string::npos ? 0 : std::stoul(kernel.substr(slash + 1)), aligned);
    return;
  }
  if (kernel.starts_with("three_stage")) {
    const std::size_t slash = kernel.find('/');
    emulate_three_stage(g, slash == std::string::npos ? 0 : std::stoul(kernel.substr(slash + 1)), aligned);
    return;
  }
  if constexpr (std::is_same_v<T, float>) {  // the tensor-core kernel: float only
    if (kernel == "tf32_wmma") {
      const dim3 grid(blocks_for(g.n, kWmmaBN), blocks_for(g.m, kWmmaBM));
      if (aligned)
        emu::launch_with_barriers(grid, dim3(kWmmaThreads), [&] { gemm_tf32_wmma<true>(g); });
      else
        emu::launch_with_barriers(grid, dim3(kWmmaThreads), [&] { gemm_tf32_wmma<false>(g); });
      return;
    }
  }
  // Each kernel's tile sizes are its file's, beside its launch.
  using T1 = Blocktile1dTiles;
  using T2 = Blocktile2dTiles;
  using Vec = VectorizedTiles;
  using Wt = WarptileTiles;
  using Db = DoubleBufferTiles;
  const dim3 tile16(kPaperTile, kPaperTile);
  const dim3 grid16(blocks_for(g.n, kPaperTile), blocks_for(g.m, kPaperTile));
  const auto grid = [&g](int bm, int bn) { return dim3(blocks_for(g.n, bn), blocks_for(g.m, bm)); };
  if (kernel == "naive")
    emu::launch(grid16, tile16, false, [&] { gemm_naive<T>(g); });
  else if (kernel == "tile16")
    emu::launch_with_barriers(grid16, tile16, [&] { gemm_tile<T, kPaperTile>(g); });
  else if (kernel == "blocktile_1d")
    emu::launch_with_barriers(grid(T1::BM, T1::BN), dim3(T1::kThreads), [&] { gemm_blocktile_1d<T, T1::BM, T1::BN, T1::BK, T1::TM>(g); });
  else if (kernel == "blocktile_2d")
    emu::launch_with_barriers(grid(T2::BM, T2::BN), dim3(T2::kThreads), [&] { gemm_blocktile_2d<T, T2::BM, T2::BN, T2::BK, T2::TM, T2::TN>(g); });
  else if (kernel == "vectorized" && aligned)
    emu::launch_with_barriers(grid(Vec::BM, Vec::BN), dim3(Vec::kThreads), [&] { gemm_vectorized<T, Vec::BM, Vec::BN, Vec::BK, Vec::TM, Vec::TN, true>(g); });
  else if (kernel == "vectorized")
    emu::launch_with_barriers(grid(Vec::BM, Vec::BN), dim3(Vec::kThreads), [&] { gemm_vectorized<T, Vec::BM, Vec::BN, Vec::BK, Vec::TM, Vec::TN, false>(g); });
  else if (kernel == "warptile" && aligned)
    emu::launch_with_barriers(grid(Wt::BM, Wt::BN), dim3(Wt::kThreads), [&] { gemm_warptile<T, Wt::BM, Wt::BN, Wt::BK, Wt::TM, Wt::TN, true>(g); });
  else if (kernel == "warptile")
    emu::launch_with_barriers(grid(Wt::BM, Wt::BN), dim3(Wt::kThreads), [&] { gemm_warptile<T, Wt::BM, Wt::BN, Wt::BK, Wt::TM, Wt::TN, false>(g); });
  else if (kernel == "double_buffer" && aligned)
    emu::launch_with_barriers(grid(Db::BM, Db::BN), dim3(Db::kThreads), [&] { gemm_double_buffer<T, Db::BM, Db::BN, Db::BK, Db::TM, Db::TN, true>(g); });
  else if (kernel == "double_buffer")
    emu::launch_with_barriers(grid(Db::BM, Db::BN), dim3(Db::kThreads), [&] { gemm_double_buffer<T, Db::BM, Db::BN, Db::BK, Db::TM, Db::TN, false>(g); });
  else
    FAIL() << "no kernel " << kernel;
}

// C of the kernel at `dims` in `type` (poisoned first) against the reference.
::testing::AssertionResult emulated_within_bound(const std::string& kernel, const Dims& dims, ElementType type, bool aligned) {
  const auto& [ops, ref] = checks::problem(dims, type);
  HostMatrix c = matrix::poisoned(dims.c(), type);
  matrix::dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      const GemmArgs<T> g{ops.a.as<T>().data(), ops.b.as<T>().data(), c.as<T>().data(), static_cast<int>(dims.m),
                          static_cast<int>(dims.n), static_cast<int>(dims.k)};
      emulate<T>(kernel, g, aligned);
    }
  });
  const Arithmetic arithmetic = kernel == "tf32_wmma" ? Arithmetic::tf32 : native_arithmetic(type);
  const Verification v = compare(c, ref, arithmetic);
  if (v.pass) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << kernel << (aligned ? " (aligned)" : "") << " on "
                                       << checks::case_name(dims, type) << ": " << v.summary();
}

class EmulatedKernel : public ::testing::TestWithParam<std::string> {};

// The TF32 kernel has no double version (tensor cores take FP32 inputs).
std::vector<ElementType> types_of(const std::string& kernel) {
  if (kernel == "tf32_wmma") return {ElementType::f32};
  return {std::begin(checks::kTypes), std::end(checks::kTypes)};
}

TEST_P(EmulatedKernel, WithinTheBoundAtAwkwardSizes) {
  for (ElementType t : types_of(GetParam()))
    for (const Dims& d : checks::awkward_dims()) EXPECT_TRUE(emulated_within_bound(GetParam(), d, t, false));
}

// The 16-byte path, at sizes where the launcher takes it (k and n multiples of 4): full tiles, a
// partial tile in every dimension, one vector of a row.
TEST_P(EmulatedKernel, WithinTheBoundOnTheAlignedPath) {
  for (ElementType t : types_of(GetParam()))
    for (const Dims& d : checks::aligned_dims())
      EXPECT_TRUE(emulated_within_bound(GetParam(), d, t, true));
}

INSTANTIATE_TEST_SUITE_P(Ch10, EmulatedKernel,
                         ::testing::Values("naive", "tile16", "blocktile_1d", "blocktile_2d", "vectorized", "warptile",
                                           "double_buffer", "tf32_wmma", "three_stage", "prefetch"),
                         [](const auto& info) { return info.param; });

// Every configuration --tune may pick, in float and double (double has fewer: types_of below
// keeps each type to the configurations compiled for it), at the awkward and the aligned sizes.
class EmulatedThreeStage : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EmulatedThreeStage, EveryConfigurationWithinTheBound) {
  const std::string kernel = "three_stage/" + std::to_string(GetParam());
  for (ElementType t : checks::kTypes) {
    const std::size_t count = t == ElementType::f64 ? three_stage_configs<double>().size() : three_stage_configs<float>().size();
    if (GetParam() >= count) continue;
    for (const Dims& d : checks::awkward_dims()) EXPECT_TRUE(emulated_within_bound(kernel, d, t, false));
    for (const Dims& d : checks::aligned_dims()) EXPECT_TRUE(emulated_within_bound(kernel, d, t, true));
  }
}

INSTANTIATE_TEST_SUITE_P(Ch10, EmulatedThreeStage, ::testing::Range<std::size_t>(1, three_stage_configs<float>().size()));

// Step 10's every configuration (the first is EmulatedKernel's "prefetch"), in float and double as
// above, at the awkward and aligned sizes and at sizes past one group of the grouped rasterisation
// (more than 8 tile rows, the last group partial), on both paths: those where the launcher takes the
// 16-byte path (k and n multiples of 4) on it and on the element path, the others on the element path.
class EmulatedPrefetch : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EmulatedPrefetch, EveryConfigurationWithinTheBound) {
  const std::string kernel = "prefetch/" + std::to_string(GetParam());
  for (ElementType t : checks::kTypes) {
    const std::size_t count = t == ElementType::f64 ? prefetch_configs<double>().size() : prefetch_configs<float>().size();
    if (GetParam() >= count) continue;
    if (GetParam() > 0) {  // configuration 0 runs in EmulatedKernel
      for (const Dims& d : checks::awkward_dims()) EXPECT_TRUE(emulated_within_bound(kernel, d, t, false));
      for (const Dims& d : checks::aligned_dims()) EXPECT_TRUE(emulated_within_bound(kernel, d, t, true));
    }
    for (const Dims& d : {Dims{2100, 300, 9}, Dims{1100, 77, 13}}) EXPECT_TRUE(emulated_within_bound(kernel, d, t, false));
    for (const Dims& d : {Dims{1100, 516, 12}, Dims{2049, 260, 8}}) {
      EXPECT_TRUE(emulated_within_bound(kernel, d, t, true));
      EXPECT_TRUE(emulated_within_bound(kernel, d, t, false));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ch10, EmulatedPrefetch, ::testing::Range<std::size_t>(0, prefetch_configs<float>().size()));

// Steps 9 and 10 share the thread layout (warp_tile.hpp): `threads` threads of warps of 4 x 8 lanes,
// each TM x TN in blocks of 4 x 4, cover every configuration's tile once.
void threads_cover_the_tile_once(std::span<const TileConfig> configs, int threads) {
  for (const TileConfig& c : configs) {
    std::vector<int> hits(static_cast<std::size_t>(c.bm * c.bn), 0);
    const int wm = 4 * c.tm, wn = 8 * c.tn;
    for (int t = 0; t < threads; ++t) {
      const int warp = t / 32, lane = t % 32;
      const int c_row = warp / (c.bn / wn) * wm + lane / 8 * 4, c_col = warp % (c.bn / wn) * wn + lane % 8 * 4;
      for (int i = 0; i < c.tm; ++i)
        for (int j = 0; j < c.tn; ++j) ++hits[static_cast<std::size_t>((c_row + row_of(i)) * c.bn + c_col + col_of(j))];
    }
    for (int h : hits) ASSERT_EQ(h, 1) << c.bm << " x " << c.bn << ", " << c.tm << " x " << c.tn;
  }
}

// Step 10's thread tiles cover each configuration's tile once, and a configuration that does not
// exist is refused.
TEST(Prefetch, ThreadsCoverTheTileOnce) {
  threads_cover_the_tile_once(prefetch_configs<float>(), kPrefetchThreads);
  threads_cover_the_tile_once(prefetch_configs<double>(), kPrefetchThreads);
  EXPECT_THROW(with_prefetch_config<float>(prefetch_configs<float>().size(), [](auto) {}), std::out_of_range);
  EXPECT_THROW(with_prefetch_config<double>(prefetch_configs<double>().size(), [](auto) {}), std::out_of_range);
}

// The grouped rasterisation maps the blocks of a grid onto its tiles one to one, and consecutive
// blocks walk down a group's column: for grids smaller, equal to and larger than a group, with a
// partial last group.
TEST(Prefetch, GroupedTilesAreAPermutation) {
  for (const auto& [tiles_n, tiles_m] : {std::pair{1, 1}, std::pair{16, 32}, std::pair{17, 33}, std::pair{3, 8}, std::pair{5, 7},
                                         std::pair{1, 100}, std::pair{100, 1}, std::pair{2, 19}}) {
    std::vector<int> hits(static_cast<std::size_t>(tiles_n * tiles_m), 0);
    for (int by = 0; by < tiles_m; ++by)
      for (int bx = 0; bx < tiles_n; ++bx) {
        int tm = -1, tn = -1;
        grouped_tile<kPrefetchGroupM>(bx, by, tiles_n, tiles_m, tm, tn);
        ASSERT_TRUE(tm >= 0 && tm < tiles_m && tn >= 0 && tn < tiles_n) << tiles_n << " x " << tiles_m << ": " << bx << ", " << by;
        ++hits[static_cast<std::size_t>(tm * tiles_n + tn)];
      }
    for (int h : hits) ASSERT_EQ(h, 1) << tiles_n << " x " << tiles_m;
  }
  int tm = -1, tn = -1;  // the second block of a 16 x 32 grid: one tile row down, same column
  grouped_tile<kPrefetchGroupM>(1, 0, 16, 32, tm, tn);
  EXPECT_EQ(tm, 1);
  EXPECT_EQ(tn, 0);
}

// Step 9's thread tiles: the 256 threads of every configuration cover its tile once, and a
// configuration that does not exist is refused.
TEST(ThreeStage, ThreadsCoverTheTileOnce) {
  threads_cover_the_tile_once(three_stage_configs<float>(), kThreeStageThreads);
  EXPECT_THROW(with_three_stage_config<float>(three_stage_configs<float>().size(), [](auto) {}), std::out_of_range);
}

// The emulated tensor core rounds like the GPU's conversion: a TF32 result must fail the FP32
// bound at a size where the rounding shows, so the TF32 test above is not passing by accident.
TEST(Tf32Wmma, FailsTheFp32Bound) {
  const Dims d{64, 64, 256};
  const auto& [ops, ref] = checks::problem(d, ElementType::f32);
  HostMatrix c = matrix::poisoned(d.c(), ElementType::f32);
  const GemmArgs<float> g{ops.a.as<float>().data(), ops.b.as<float>().data(), c.as<float>().data(), 64, 64, 256};
  emulate<float>("tf32_wmma", g, true);
  EXPECT_TRUE(compare(c, ref, Arithmetic::tf32).pass);
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp32).pass);
}

// Each warp-tile thread computes 64 distinct elements, and the 256 threads cover the 128 x 128 tile once.
TEST(Warptile, ThreadsCoverTheTileOnce) {
  std::vector<int> hits(128 * 128, 0);
  for (int t = 0; t < 256; ++t) {
    const int warp = t / 32, lane = t % 32;
    const int c_row = warp / 2 * 32 + lane / 8 * 4, c_col = warp % 2 * 64 + lane % 8 * 4;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) ++hits[(c_row + row_of(i)) * 128 + c_col + col_of(j)];
  }
  for (int h : hits) ASSERT_EQ(h, 1);
}

}  // namespace
}  // namespace gpgpu::blas::cuda
