// Chapter 10b's mma.sync kernel (10b_mma_sync.cu), unchanged, on the CPU emulation of the thread
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

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/checks.hpp"
#include "mma_sync_emulation.hpp"  // before the kernel: its warp instructions on the CPU

#define GPGPU_CUDA_EMULATION
#include "../10b_mma_sync.cu"

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

}  // namespace
}  // namespace gpgpu::blas::cuda
