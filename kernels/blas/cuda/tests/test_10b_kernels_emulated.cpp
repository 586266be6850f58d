// Chapter 10b's mma.sync kernel (10b_02_mma_sync.cu), the inputs' rounding and FP8 quantisation
// per tensor and per block (10b_round_inputs.cu) and step 12's loads of the block scales one half
// ahead (fp8_block_scales.hpp), unchanged, on the CPU emulation of the thread
// model, with ldmatrix and mma.sync emulated from the PTX ISA (mma_sync_emulation.hpp): TF32 against
// the FP64 reference within the TF32 bound; BF16, its inputs rounded to bfloat16 once as the
// chapter's caller does, against the FP64 product of the rounded inputs within the FP32 bound (the
// products of BF16 inputs are exact in FP32, only the sums round). C poisoned first; the awkward
// sizes (tails in every dimension) on the element path, the aligned sizes on the 16-byte path.
// It catches wrong fragment lanes, swizzle and tile indices, missing bounds and barriers; it says
// nothing about cp.async's memory model or the hardware's sum order (the GPU tests and the
// sanitizer's racecheck and synccheck do).
#include "matrix/cuda/tests/matrix_emulation.hpp"

#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/blas/fp8.hpp"
#include "mma_sync_emulation.hpp"  // before the kernel: its warp instructions on the CPU

#define GPGPU_CUDA_EMULATION
#include "../10b_02_mma_sync.cu"
#include "../10b_round_inputs.cu"
#include "../fp8_block_scales.hpp"

namespace gpgpu::blas::cuda {
namespace {

namespace checks = gpgpu::blas::checks;

// The launch of launch_mma_sync, on the emulation; `aligned`: the template the launcher picks
// (true only where k and n are multiples of a 16-byte chunk; false is always correct).
template <typename In>
void emulate_mma_sync(const TensorCoreArgs<In>& g, bool aligned) {
  using Tiles = MmaSyncTiles<In>;
  const dim3 grid(blocks_for(g.n, Tiles::BN), blocks_for(g.m, Tiles::BM));
  if (aligned)
    emu::launch_with_barriers(grid, dim3(Tiles::kThreads), [&] { gemm_mma_sync<In, true>(g); });
  else
    emu::launch_with_barriers(grid, dim3(Tiles::kThreads), [&] { gemm_mma_sync<In, false>(g); });
}

::testing::AssertionResult verdict(const Verification& v, const char* type, const Dims& d, bool aligned) {
  if (v.pass) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << type << (aligned ? " (aligned)" : "") << " on " << d.str() << ": " << v.summary();
}

::testing::AssertionResult tf32_within_bound(const Dims& d, bool aligned) {
  const auto& [ops, ref] = checks::problem(d, ElementType::f32);
  HostMatrix c = matrix::poisoned(d.c(), ElementType::f32);
  const TensorCoreArgs<float> g{ops.a.as<float>().data(), ops.b.as<float>().data(), c.as<float>().data(), static_cast<int>(d.m),
                                static_cast<int>(d.n), static_cast<int>(d.k)};
  emulate_mma_sync(g, aligned);
  return verdict(compare(c, ref, Arithmetic::tf32), "tf32", d, aligned);
}

// `m`'s elements rounded to BF16 (to nearest even, __float2bfloat16), and the same as floats.
std::vector<Bf16> to_bf16(HostMatrix& m) {
  std::vector<Bf16> out;
  for (float& x : m.as<float>()) {
    out.push_back(__float2bfloat16(x));
    x = __bfloat162float(out.back());
  }
  return out;
}

::testing::AssertionResult bf16_within_bound(const Dims& d, bool aligned) {
  Operands rounded = checks::problem(d, ElementType::f32).first;
  const std::vector<Bf16> a = to_bf16(rounded.a), b = to_bf16(rounded.b);
  const Reference ref = reference_by_loop(rounded);
  HostMatrix c = matrix::poisoned(d.c(), ElementType::f32);
  const TensorCoreArgs<Bf16> g{a.data(), b.data(), c.as<float>().data(), static_cast<int>(d.m), static_cast<int>(d.n),
                               static_cast<int>(d.k)};
  emulate_mma_sync(g, aligned);
  return verdict(compare(c, ref, Arithmetic::fp32), "bf16", d, aligned);
}

TEST(MmaSync, Tf32WithinTheBoundAtAwkwardSizes) {
  for (const Dims& d : checks::awkward_dims()) EXPECT_TRUE(tf32_within_bound(d, false));
}

TEST(MmaSync, Bf16WithinTheBoundAtAwkwardSizes) {
  for (const Dims& d : checks::awkward_dims()) EXPECT_TRUE(bf16_within_bound(d, false));
}

// The 16-byte path where the launcher takes it: k and n multiples of 4 (TF32) or 8 (BF16), with
// full tiles, partial tiles and more than one k-step.
TEST(MmaSync, OnTheAlignedPath) {
  for (const Dims& d : checks::aligned_dims()) EXPECT_TRUE(tf32_within_bound(d, true));
  for (const Dims& d : {Dims{128, 128, 64}, Dims{131, 136, 72}, Dims{1, 8, 8}, Dims{67, 264, 200}})
    EXPECT_TRUE(bf16_within_bound(d, true));
}

// The TF32 result must fail the FP32 bound where the rounding shows (the emulated mma refuses
// unrounded TF32 operands, so the kernel's rounding is what is measured), or the tests above could
// pass by accident.
TEST(MmaSync, Tf32FailsTheFp32Bound) {
  const Dims d{64, 64, 256};
  const auto& [ops, ref] = checks::problem(d, ElementType::f32);
  HostMatrix c = matrix::poisoned(d.c(), ElementType::f32);
  emulate_mma_sync(TensorCoreArgs<float>{ops.a.as<float>().data(), ops.b.as<float>().data(), c.as<float>().data(), 64, 64, 256}, true);
  EXPECT_TRUE(compare(c, ref, Arithmetic::tf32).pass);
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp32).pass);
}

// The BF16 inputs' rounding, bit for bit against round to nearest even stated on the bits (add
// 0x7FFF plus the lowest kept bit, drop the low 16: ties go to the even neighbour, and the largest
// floats carry into the exponent, to infinity, as they must), for every non-NaN float: ties both
// ways, either side of a tie, signs, subnormals, the largest finite float, infinity, then random
// bit patterns; NaN stays NaN. The grid is partial (1000 elements, blocks of 256): the threads past
// the end write nothing.
TEST(RoundToBf16, ToNearestEvenOnEveryThreadOfAPartialGrid) {
  constexpr int kCount = 1000, kSentinel = 24;
  std::vector<std::uint32_t> bits{0x3F808000u, 0x3F818000u, 0x3F808001u, 0x3F807FFFu, 0xBF808000u, 0xBF818000u,
                                  0x00000001u, 0x0000C000u, 0x80018000u, 0x7F7FFFFFu, 0x7F800000u, 0xFF800000u,
                                  0x00000000u, 0x80000000u, 0x42C80000u};
  std::uint32_t state = 12345;
  while (bits.size() < kCount) {
    state = state * 1664525u + 1013904223u;  // any pattern but NaN
    if ((state & 0x7F800000u) != 0x7F800000u) bits.push_back(state);
  }
  bits[500] = 0x7FC00001u;  // a NaN
  std::vector<float> in(kCount);
  std::memcpy(in.data(), bits.data(), kCount * sizeof(float));
  std::vector<Bf16> out(kCount + kSentinel, __float2bfloat16(-7.0f));
  emu::launch(dim3(blocks_for(kCount, kRoundThreads)), dim3(kRoundThreads), false,
              [&] { round_inputs<Bf16, ToBf16>(in.data(), out.data(), kCount); });
  for (int i = 0; i < kCount; ++i) {
    const float got = __bfloat162float(out[static_cast<std::size_t>(i)]);
    if (i == 500) {
      EXPECT_TRUE(std::isnan(got));
      continue;
    }
    std::uint32_t got_bits;
    std::memcpy(&got_bits, &got, 4);
    const std::uint32_t b = bits[static_cast<std::size_t>(i)];
    EXPECT_EQ(got_bits, (b + 0x7FFFu + (b >> 16 & 1u)) & 0xFFFF0000u) << "input bits " << std::hex << b;
  }
  for (int i = kCount; i < kCount + kSentinel; ++i) EXPECT_EQ(__bfloat162float(out[static_cast<std::size_t>(i)]), -7.0f);
}

// The TF32 rounding of steps 7-10's inputs, in place as the preparation runs it, on a partial grid:
// every element rounded to nearest TF32 with ties away from zero (cvt.rna: add half of the 13
// dropped bits to the magnitude, then drop them), the threads past the end writing nothing.
TEST(RoundToTf32, InPlaceToNearestOnEveryThreadOfAPartialGrid) {
  constexpr int kCount = 1000, kSentinel = 24;
  std::vector<std::uint32_t> bits{0x3F801000u, 0x3F803000u, 0x3F800FFFu, 0xBF801000u, 0x00000001u,
                                  0x7F7FFFFFu, 0x00000000u, 0x80000000u, 0x3F806000u};
  std::uint32_t state = 54321;
  while (bits.size() < kCount) {
    state = state * 1664525u + 1013904223u;
    if ((state & 0x7F800000u) != 0x7F800000u) bits.push_back(state);
  }
  std::vector<float> data(kCount + kSentinel, -7.0f);
  std::memcpy(data.data(), bits.data(), kCount * sizeof(float));
  emu::launch(dim3(blocks_for(kCount, kRoundThreads)), dim3(kRoundThreads), false,
              [&] { round_inputs<float, ToTf32>(data.data(), data.data(), kCount); });
  for (int i = 0; i < kCount; ++i) {
    std::uint32_t got;
    std::memcpy(&got, &data[static_cast<std::size_t>(i)], 4);
    const std::uint32_t b = bits[static_cast<std::size_t>(i)];
    EXPECT_EQ(got, (b + 0x1000u) & 0xFFFFE000u) << "input bits " << std::hex << b;
  }
  for (int i = kCount; i < kCount + kSentinel; ++i) EXPECT_EQ(data[static_cast<std::size_t>(i)], -7.0f);
}

// The FP8 quantisation of A (rows of a 16-byte pitch, the columns past k zeroed) and of B into Bᵀ,
// on a partial grid, byte for byte against the host's rounding (gpgpu::blas::round_to_e4m3 of the
// same float division), which test_blas checks against every E4M3 value. The scale is given here
// (the amax kernel uses warp shuffles and atomics the emulation lacks; the GPU test covers it).
float e4m3_bits_value(Fp8 bits) {
  const int e = bits >> 3 & 0xF, m = bits & 7;
  const float magnitude = e == 0 ? std::ldexp(static_cast<float>(m), -9) : std::ldexp(static_cast<float>(8 + m), e - 10);
  return (bits & 0x80) != 0 ? -magnitude : magnitude;
}

TEST(QuantiseE4m3, MatchesTheHostRoundingPlainAndTransposedWithPaddedRows) {
  constexpr long long kRows = 19, kCols = 37, kPitch = 48;
  std::vector<float> in(static_cast<std::size_t>(kRows * kCols));
  std::uint32_t state = 777;
  for (float& x : in) {
    state = state * 1664525u + 1013904223u;
    x = (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 200.0f * ((state & 3u) == 0 ? 1e-3f : 1.0f);  // some tiny, into the subnormals
  }
  const float scale = gpgpu::blas::e4m3_scale(gpgpu::blas::amax(in));
  for (bool transpose : {false, true}) {
    const long long out_rows = transpose ? kCols : kRows, out_cols = transpose ? kRows : kCols;
    std::vector<Fp8> out(static_cast<std::size_t>(out_rows * kPitch), Fp8{0x55});
    const E4m3Quantise q{in.data(), out.data(), kRows, kCols, kPitch, transpose, &scale};
    const long long count = out_rows * kPitch;
    emu::launch(dim3(static_cast<unsigned>(blocks_for(count, kRoundThreads))), dim3(kRoundThreads), false, [&] { quantise_e4m3(q); });
    for (long long r = 0; r < out_rows; ++r)
      for (long long c = 0; c < kPitch; ++c) {
        const Fp8 got = out[static_cast<std::size_t>(r * kPitch + c)];
        if (c >= out_cols) {
          EXPECT_EQ(got, 0) << "padding at " << r << "," << c;
          continue;
        }
        const float x = transpose ? in[static_cast<std::size_t>(c * kCols + r)] : in[static_cast<std::size_t>(r * kCols + c)];
        EXPECT_EQ(e4m3_bits_value(got), gpgpu::blas::round_to_e4m3(x / scale)) << (transpose ? "Bt " : "A ") << r << "," << c;
      }
  }
}

// Step 12's quantisation with a scale per block, on the emulation: the scales kernel (one CUDA
// block per scale block, a shared-memory reduction) for A's 1 x 128 blocks (k-block-major scales)
// and B's 128 x 128 (row-major scales), then the quantiser plain (A) and transposed (Bᵀ), at sizes
// where k and n are no multiple of 128, 1 and odd; each scale against the host's
// e4m3_block_scale of the block's largest |x| found here, each byte against round_to_e4m3 with its
// block's scale, and the dequantised bytes against gpgpu::blas::dequantised_e4m3_blocks (the
// reference's inputs) value for value. Some blocks hold values a thousand times smaller, so that a
// scale read from the wrong block shows.
struct BlockCase {
  long long rows, cols, block_rows;
  bool transpose;  // quantised into its transpose (B into Bᵀ)
};

std::vector<float> block_test_input(long long rows, long long cols, std::uint32_t seed) {
  std::vector<float> in(static_cast<std::size_t>(rows * cols));
  std::uint32_t state = seed;
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) {
      state = state * 1664525u + 1013904223u;
      const float tiny = (c / 128 + r / 128) % 2 == 1 ? 1e-3f : 1.0f;
      in[static_cast<std::size_t>(r * cols + c)] = (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 200.0f * tiny;
    }
  return in;
}

TEST(QuantiseE4m3Blocks, ScalesAndBytesMatchTheHostBlockByBlock) {
  constexpr long long kBlock = gpgpu::blas::kFp8BlockK;
  for (const BlockCase t : {BlockCase{3, 300, 1, false}, BlockCase{1, 1, 1, false}, BlockCase{2, 129, 1, false},
                            BlockCase{300, 5, kBlock, true}, BlockCase{257, 131, kBlock, true}, BlockCase{1, 1, kBlock, true}}) {
    const std::string what = std::to_string(t.rows) + "x" + std::to_string(t.cols) + (t.transpose ? " B" : " A");
    const std::vector<float> in = block_test_input(t.rows, t.cols, 99);
    const long long row_blocks = (t.rows + t.block_rows - 1) / t.block_rows, col_blocks = (t.cols + kBlock - 1) / kBlock;
    // A: the scale of block (i, kb) at kb · m + i; B: of block (kb, jb) at kb · ⌈n/128⌉ + jb.
    const E4m3ScaleBlocks blocks = t.transpose ? E4m3ScaleBlocks{kBlock, kBlock, col_blocks, 1} : E4m3ScaleBlocks{1, kBlock, 1, t.rows};
    std::vector<float> scales(static_cast<std::size_t>(row_blocks * col_blocks), -3.0f);
    const E4m3BlockScales sq{in.data(), t.rows, t.cols, blocks, scales.data()};
    emu::launch_with_barriers(dim3(static_cast<unsigned>(row_blocks * col_blocks)), dim3(kRoundThreads), [&] { e4m3_block_scales(sq); });
    for (long long br = 0; br < row_blocks; ++br)
      for (long long bc = 0; bc < col_blocks; ++bc) {
        float largest = 0;
        for (long long r = br * t.block_rows; r < std::min((br + 1) * t.block_rows, t.rows); ++r)
          for (long long c = bc * kBlock; c < std::min((bc + 1) * kBlock, t.cols); ++c)
            largest = std::max(largest, std::fabs(in[static_cast<std::size_t>(r * t.cols + c)]));
        EXPECT_EQ(scales[static_cast<std::size_t>(br * blocks.row_stride + bc * blocks.col_stride)], gpgpu::blas::e4m3_block_scale(largest))
            << what << " block " << br << "," << bc;
      }
    const long long out_rows = t.transpose ? t.cols : t.rows, out_cols = t.transpose ? t.rows : t.cols;
    const long long pitch = (out_cols + 15) / 16 * 16;
    std::vector<Fp8> out(static_cast<std::size_t>(out_rows * pitch), Fp8{0x55});
    const E4m3Quantise q{in.data(), out.data(), t.rows, t.cols, pitch, t.transpose, scales.data(), blocks};
    emu::launch(dim3(static_cast<unsigned>(blocks_for(out_rows * pitch, kRoundThreads))), dim3(kRoundThreads), false,
                [&] { quantise_e4m3(q); });
    const HostMatrix floats({t.rows, t.cols}, std::vector<float>(in));
    const HostMatrix dequantised = gpgpu::blas::dequantised_e4m3_blocks(floats, t.block_rows, kBlock);
    for (long long r = 0; r < out_rows; ++r)
      for (long long c = 0; c < pitch; ++c) {
        const Fp8 got = out[static_cast<std::size_t>(r * pitch + c)];
        if (c >= out_cols) {
          ASSERT_EQ(got, 0) << what << " padding at " << r << "," << c;
          continue;
        }
        const long long in_r = t.transpose ? c : r, in_c = t.transpose ? r : c;
        const float s = scales[static_cast<std::size_t>(in_r / blocks.rows * blocks.row_stride + in_c / blocks.cols * blocks.col_stride)];
        const float x = in[static_cast<std::size_t>(in_r * t.cols + in_c)];
        ASSERT_EQ(e4m3_bits_value(got), gpgpu::blas::round_to_e4m3(x / s)) << what << " " << r << "," << c;
        ASSERT_EQ(static_cast<double>(e4m3_bits_value(got)) * s, dequantised.as<double>()[static_cast<std::size_t>(in_r * t.cols + in_c)])
            << what << " " << r << "," << c;
      }
  }
}


// Step 12's scales (fp8_block_scales.hpp) driven as its consumers drive them: a PrefetchedFactors
// made before each tile's k loop, then take(s, h) at every half in the kernel's order, each
// half's factors against s_a(row, kb) · s_b(kb, col block) read here from launch_fp8_block's layout
// (A's at kb · m + row, B's at kb · ⌈n/128⌉ + col block), 0 for a row past m or a column block past
// n, the thread's rows from the PTX ISA's wgmma D fragment (16 · warp + lane / 4, and 8 below), for
// every thread of a consumer, at tiles with rows past m, a column block past n, one k-block and
// several. The scales are powers of two from 2^-40 to 2^40 (the products are exact), random, so a
// factor taken for the wrong half (off by one in either direction) differs. Both arrays are
// followed by NaN: the tile's last half asks for the k-block after the last, which must not be
// read, and what the loader holds after it must be 0.
struct ScalesCase {
  int m, n, k_blocks;
};

TEST(Fp8BlockScales, FactorsLoadedAheadAreEachHalfsInOrder) {
  constexpr int kConsumerThreads = 128;
  std::uint32_t state = 12345;
  const auto power_of_two = [&] {
    state = state * 1664525u + 1013904223u;
    return std::ldexp(1.0f, static_cast<int>(state >> 8) % 81 - 40);
  };
  for (const ScalesCase t : {ScalesCase{200, 300, 4}, ScalesCase{70, 128, 1}, ScalesCase{1, 1000, 3}, ScalesCase{128, 256, 2}}) {
    const int n_blocks = (t.n + 127) / 128;
    std::vector<float> scale_a(static_cast<std::size_t>(t.k_blocks * t.m)), scale_b(static_cast<std::size_t>(t.k_blocks * n_blocks));
    for (float& x : scale_a) x = power_of_two();
    for (float& x : scale_b) x = power_of_two();
    scale_a.resize(scale_a.size() + static_cast<std::size_t>(t.m), NAN);  // a k-block more
    scale_b.resize(scale_b.size() + static_cast<std::size_t>(n_blocks), NAN);
    const Fp8Epilogue<float> e{nullptr, 0, scale_a.data(), scale_b.data()};
    const auto expected = [&](int row, int kb, int cb) {
      return row < t.m && cb < n_blocks ? scale_a[static_cast<std::size_t>(kb * t.m + row)] * scale_b[static_cast<std::size_t>(kb * n_blocks + cb)]
                                        : 0.0f;
    };
    for (int row0 = 0; row0 < t.m; row0 += 64)               // a consumer's 64 rows of a tile
      for (int col_block0 = 0; col_block0 < n_blocks; col_block0 += 2)  // a tile's two column blocks
        for (int thread = 0; thread < kConsumerThreads; ++thread) {
          const std::string where = std::to_string(t.m) + "x" + std::to_string(t.n) + ", " + std::to_string(t.k_blocks) +
                                    " k-blocks, rows from " + std::to_string(row0) + ", column block " + std::to_string(col_block0) +
                                    ", thread " + std::to_string(thread);
          const int upper = row0 + 16 * (thread / 32) + thread % 32 / 4, lower = upper + 8;
          PrefetchedFactors ahead(e, t.m, n_blocks, t.k_blocks, col_block0, row0, thread);
          for (int s = 0; s < t.k_blocks; ++s)
            for (int h = 0; h < 2; ++h) {
              const RowFactors f = ahead.take(e, s, h);
              ASSERT_EQ(f.upper, expected(upper, s, col_block0 + h)) << where << ", k-block " << s << ", half " << h;
              ASSERT_EQ(f.lower, expected(lower, s, col_block0 + h)) << where << ", k-block " << s << ", half " << h;
            }
          ASSERT_EQ(ahead.a_upper, 0.0f) << where << ": read past the last k-block";
          ASSERT_EQ(ahead.a_lower, 0.0f) << where << ": read past the last k-block";
          ASSERT_EQ(ahead.b, 0.0f) << where << ": read past the last k-block";
        }
  }
}

}  // namespace
}  // namespace gpgpu::blas::cuda
