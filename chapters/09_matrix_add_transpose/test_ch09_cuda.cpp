// Chapter 09's CUDA variants on device 0 (label cuda; skipped without a GPU): every variant of "all"
// against the CPU reference, bit for bit, at the awkward shapes in every element type and beyond
// the L2, with the output poisoned first; the two kernels as the paper printed them fail where
// kernels/matrix/cuda/tests/test_kernels_emulated.cpp says they must, at the paper's own tile
// sizes; operands the device cannot hold are refused before anything is allocated.
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "cuda_variants.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/checks.hpp"
#include "matrix/cuda/launchers.hpp"

namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::Shape;
namespace checks = gpgpu::matrix::checks;

gpgpu::Session& session() {
  static const std::unique_ptr<gpgpu::Session> s = gpgpu::cuda::open_session(0);
  return *s;
}

const gpgpu::matrix::Variant& variant(const std::string& name) {
  static const std::vector<gpgpu::matrix::Variant> variants = ch09::cuda_variants();
  for (const auto& v : variants)
    if (v.info.name == name) return v;
  throw std::out_of_range(name);
}

std::vector<std::string> names_in_all() {
  std::vector<std::string> n;
  for (const auto& s : ch09::cuda_variants())
    if (s.info.in_all) n.push_back(s.info.name);
  return n;
}

// Why this device cannot run the variant at all (step 14 on a GPU other than compute capability
// 9.0, or not built), or nullopt.
std::optional<std::string> refused_here(const std::string& name) {
  const gpgpu::matrix::Variant& v = variant(name);
  return v.limitation ? v.limitation({{64, 64}, ElementType::f32}, session()) : std::nullopt;
}

class CudaVariant : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (const auto why = refused_here(GetParam())) GTEST_SKIP() << *why;
  }
};

TEST_P(CudaVariant, MatchesTheReferenceAtAwkwardShapesInEveryType) {
  for (ElementType t : checks::kTypes)
    for (const Shape& shape : checks::awkward_shapes()) EXPECT_TRUE(checks::runs_exactly(variant(GetParam()), shape, t, session()));
}

TEST_P(CudaVariant, MatchesTheReferenceBeyondTheL2) {
  EXPECT_TRUE(checks::runs_exactly(variant(GetParam()), checks::kBeyondL2, ElementType::f32, session()));
}

TEST_P(CudaVariant, RefusesMatricesTheDeviceCannotHold) {
  const gpgpu::matrix::Variant& v = variant(GetParam());
  EXPECT_THROW(v.check_fits({{100000, 100000}, ElementType::f64}, session()), gpgpu::UsageError);  // 80 GB per matrix
  EXPECT_NO_THROW(v.check_fits({{64, 64}, ElementType::f64}, session()));
}

TEST_P(CudaVariant, MatchesTheReferenceWhereRowsAreWholeVectors) {
  // The shapes on which cuda_transpose_tile_vec4, _panels and _persistent take their 16-byte path; any
  // variant must pass them.
  for (ElementType t : checks::kTypes)
    for (const Shape& shape : checks::whole_vector_shapes()) EXPECT_TRUE(checks::runs_exactly(variant(GetParam()), shape, t, session()));
}

TEST_P(CudaVariant, MatchesTheReferenceWhenEachBlockLoopsOverManyTiles) {
  // 17 x 33 and 65 x 17 tiles of 64 x 64, none whole at the far edges, rows of whole vectors: more
  // tiles than the persistent and TMA grids have blocks, so that their blocks loop (the TMA ring of
  // stages wraps round, its barriers' phases flip) and take cut tiles on the way.
  for (ElementType t : checks::kTypes)
    for (const Shape& shape : {Shape{1028, 2052}, Shape{4100, 1028}})
      EXPECT_TRUE(checks::runs_exactly(variant(GetParam()), shape, t, session()));
}

TEST(CudaTransposeTma, KeepsTwoFloatBlocksOrOneDoubleBlockPerSm) {
  // 97 KiB of shared memory per float block (four input tiles, two output tiles, the alignment): two
  // fit an SM's 228 KiB; 129 KiB per double block: one.
  if (const auto why = refused_here("cuda_transpose_tma")) GTEST_SKIP() << *why;
#if GPGPU_HAVE_TMA_TRANSPOSE
  int sms = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  const gpgpu::matrix::cuda::TmaTransposeShape f = gpgpu::matrix::cuda::transpose_tma_shape<float>(8192, 8192);
  const gpgpu::matrix::cuda::TmaTransposeShape d = gpgpu::matrix::cuda::transpose_tma_shape<double>(8192, 8192);
  EXPECT_EQ(f.shape.grid.x, 2U * static_cast<unsigned>(sms));
  EXPECT_EQ(f.stages, 4);
  EXPECT_EQ(d.shape.grid.x, static_cast<unsigned>(sms));
  EXPECT_EQ(d.stages, 2);
  EXPECT_EQ(gpgpu::matrix::cuda::transpose_tma_shape<float>(100, 100).shape.grid.x, 4U);  // at most a block per tile
#endif
}

TEST(CudaTransposePersistent, LaunchesTheBlocksTheDeviceKeepsResidentAtOnce) {
  // 8192² floats: 16384 tiles, more than any GPU keeps resident, so the grid is the device's SMs
  // times the blocks of this kernel per SM (at least one, at most the 2048 threads' eight).
  (void)session();  // device 0 current
  int sms = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  for (const unsigned blocks : {gpgpu::matrix::cuda::transpose_persistent_shape<float>(8192, 8192).grid.x,
                                gpgpu::matrix::cuda::transpose_persistent_shape<double>(8192, 8192).grid.x}) {
    EXPECT_EQ(blocks % static_cast<unsigned>(sms), 0U) << blocks << " blocks on " << sms << " SMs";
    EXPECT_GE(blocks / static_cast<unsigned>(sms), 1U);
    EXPECT_LE(blocks / static_cast<unsigned>(sms), 8U);
  }
}

INSTANTIATE_TEST_SUITE_P(Ch09, CudaVariant, ::testing::ValuesIn(names_in_all()), [](const auto& info) { return info.param; });

// True when the variant's result equals the reference at n x n (float).
bool right_at(const std::string& name, int n) {
  return checks::runs_exactly(variant(name), {n, n}, ElementType::f32, session());
}

TEST(PrintedKernels, TheTileOfObr20IsRightOnlyUpToSixteen) {
  for (int n : {1, 5, 16}) EXPECT_TRUE(right_at("cuda_transpose_tile_as_printed", n)) << n;
  for (int n : {17, 32, 48, 1024}) EXPECT_FALSE(right_at("cuda_transpose_tile_as_printed", n)) << n;
}

TEST(PrintedKernels, TheAddOfObr13IsRightOnlyNearN1024) {
  // Its index reaches every element only for n = 1 and 993 <= n <= 1025 (32 x 32 blocks); of the
  // paper's sizes only 1024.
  for (int n : {1, 993, 1000, 1024, 1025}) EXPECT_TRUE(right_at("cuda_add_shared_paper", n)) << n;
  for (int n : {16, 64, 992, 1026, 2048}) EXPECT_FALSE(right_at("cuda_add_shared_paper", n)) << n;
}

// The launch line of `name` made for float operands of `shape`.
std::string launch_of(const std::string& name, const Shape& shape) {
  return variant(name).make(gpgpu::matrix::random_inputs({shape, ElementType::f32}, 1), session())->launch();
}

TEST(CudaLaunch, SaysHowItRan) {
  EXPECT_EQ(launch_of("cuda_add_rowmajor", {17, 1023}), "grid 32 x 3 of 32 x 8 threads");
  EXPECT_EQ(launch_of("cuda_transpose_naive", {17, 1023}), "grid 1 x 128 of 32 x 8 threads");
  EXPECT_EQ(launch_of("cuda_transpose_tile_multi", {4097, 33}), "grid 2 x 129 of 32 x 8 threads");
  EXPECT_EQ(launch_of("cuda_transpose_tile_vec4", {4097, 33}), "grid 1 x 65 of 8 x 4 x 8 threads");
  EXPECT_EQ(launch_of("cuda_transpose_tile_panels", {4097, 33}), "grid 1 x 65 of 8 x 4 x 8 threads");  // 09_11's grid
  // The persistent grid: one block per tile while the tiles (1 x 65 here) are fewer than the blocks
  // the device keeps resident.
  EXPECT_EQ(launch_of("cuda_transpose_persistent", {4097, 33}),
            "grid 65 of 8 x 4 x 8 threads, resident, looping over the tiles");
  EXPECT_EQ(launch_of("cuda_add_vec4", {4097, 33}), "grid 133 of 256 threads, a vector per thread, 16 B per access");
  if (!refused_here("cuda_transpose_tma")) {
    // Rows that TMA cannot describe (33 floats, 132 bytes) take step 12's kernel, and say so.
    EXPECT_EQ(launch_of("cuda_transpose_tma", {4097, 33}),
              "rows of 132 bytes in, 16388 out, where TMA needs multiples of 16: step 12's kernel, grid 1 x 65 of 8 x 4 x 8 threads");
    EXPECT_EQ(launch_of("cuda_transpose_tma", {64, 128}),
              "grid 2 of 128 threads, 97 KiB shared each, 4 tiles in flight per block, resident, looping over the tiles");
  }
  EXPECT_EQ(launch_of("cuda_memcpy", {4, 4}), "cudaMemcpyAsync, device to device");
}

}  // namespace
