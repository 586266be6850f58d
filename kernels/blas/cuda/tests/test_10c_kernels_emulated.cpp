// Chapter 10c's FP8 quantisation per tensor and per block (10c_quantise_inputs.cu) and step 2's
// loads of the block scales one half ahead (fp8_block_scales.hpp), unchanged, on the CPU emulation
// of the thread model: every byte against the host's rounding, every scale against the host's
// choice, every factor against the layout launch_fp8_block reads.
#include "matrix/cuda/tests/matrix_emulation.hpp"

#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "gpgpu/blas/fp8.hpp"

#define GPGPU_CUDA_EMULATION
#include "../10c_quantise_inputs.cu"
#include "../fp8_block_scales.hpp"

namespace gpgpu::blas::cuda {
namespace {

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
    emu::launch(dim3(static_cast<unsigned>(blocks_for(count, kQuantiseThreads))), dim3(kQuantiseThreads), false, [&] { quantise_e4m3(q); });
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
    emu::launch_with_barriers(dim3(static_cast<unsigned>(row_blocks * col_blocks)), dim3(kQuantiseThreads), [&] { e4m3_block_scales(sq); });
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
    emu::launch(dim3(static_cast<unsigned>(blocks_for(out_rows * pitch, kQuantiseThreads))), dim3(kQuantiseThreads), false,
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


// Step 2's scales (fp8_block_scales.hpp) driven as its consumers drive them: a PrefetchedFactors
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
