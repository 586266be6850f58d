// Chapter 10b's mma.sync kernel (10b_02_mma_sync.cu) and the inputs' rounding (10b_round_inputs.cu),
// unchanged, on the CPU emulation of the thread model, with ldmatrix and mma.sync emulated from the PTX ISA (mma_sync_emulation.hpp): TF32 against
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
#include "mma_sync_emulation.hpp"  // before the kernel: its warp instructions on the CPU

#define GPGPU_CUDA_EMULATION
#include "../10b_02_mma_sync.cu"
#include "../10b_round_inputs.cu"

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

}  // namespace
}  // namespace gpgpu::blas::cuda
