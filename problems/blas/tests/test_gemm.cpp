// The multiply library: the reference against the textbook loop in FP64, the error bound (its
// formula, that it accepts a correct float product and refuses one term too few), the work table.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

#include <gtest/gtest.h>

#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/blas/operation.hpp"
#include "gpgpu/blas/report.hpp"
#include "gpgpu/blas/work.hpp"

namespace gpgpu::blas {
namespace {

TEST(Reference, EqualsTheTextbookLoopInDouble) {
  for (const Dims d : {Dims{1, 1, 1}, Dims{17, 1023, 33}, Dims{67, 5, 129}}) {
    const Operands ops = random_operands(d, ElementType::f64, 3);
    const Reference ref = reference(ops);
    const HostMatrix loop = naive_product(ops);
    const std::span<const double> c = loop.as<double>();
    ASSERT_EQ(ref.c.size(), c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
      // Both are FP64 sums of the same k products: each within γ_k(2^-53)|A||B| of the exact value.
      EXPECT_LE(std::fabs(ref.c[i] - c[i]), 2 * error_bound(Arithmetic::fp64, d.k) * ref.abs_ab[i]) << d.str() << " " << i;
      EXPECT_GE(ref.abs_ab[i], std::fabs(ref.c[i]));
    }
  }
}

TEST(Reference, TheLoopAgreesWithTheLibraryPastEveryBlock) {
  const Operands ops = random_operands({37, 300, 517}, ElementType::f32, 4);
  const Reference lib = reference(ops), loop = reference_by_loop(ops);
  for (std::size_t i = 0; i < lib.c.size(); ++i) {
    EXPECT_LE(std::fabs(lib.c[i] - loop.c[i]), 2 * error_bound(Arithmetic::fp64, 517) * lib.abs_ab[i]) << i;
    EXPECT_NEAR(lib.abs_ab[i], loop.abs_ab[i], 2 * error_bound(Arithmetic::fp64, 517) * lib.abs_ab[i]) << i;
  }
}

TEST(ErrorBound, IsGammaKOfTheUnitRoundoffPlusTheReferences) {
  const double g = 1000 * std::ldexp(1.0, -24) / (1 - 1000 * std::ldexp(1.0, -24));
  const double r = 2 * 1000 * std::ldexp(1.0, -53) / (1 - 1000 * std::ldexp(1.0, -53));
  EXPECT_DOUBLE_EQ(error_bound(Arithmetic::fp32, 1000), g + r);
  EXPECT_GT(error_bound(Arithmetic::tf32, 1), std::ldexp(1.0, -10));  // the inputs' rounding alone: 2 x 2^-11
  // BF16: (1 + u)^2 (1 + γ_k(2^-23)) - 1 plus the reference's share: 2u + u^2 + γ_k, and the
  // product of the two (below 3 u γ_k).
  const double u = std::ldexp(1.0, -8), g23 = 1000 * std::ldexp(1.0, -23) / (1 - 1000 * std::ldexp(1.0, -23));
  EXPECT_GE(error_bound(Arithmetic::bf16, 1000), 2 * u + u * u + g23 + r);
  EXPECT_LE(error_bound(Arithmetic::bf16, 1000), 2 * u + u * u + g23 + r + 3 * u * g23);
  // BF16 with C rounded to bfloat16: one more (1 + 2^-8), on top of the BF16 bound.
  const double bf16 = error_bound(Arithmetic::bf16, 1000) - r;
  EXPECT_NEAR(error_bound(Arithmetic::bf16_bf16_c, 1000), (1 + bf16) * (1 + u) - 1 + r, 1e-15);
  EXPECT_LT(error_bound(Arithmetic::fp64, 4096), 2e-12);  // 3 x 4096 x 2^-53
  EXPECT_THROW((void)error_bound(Arithmetic::fp32, std::int64_t{1} << 24), std::invalid_argument);
}

TEST(Compare, AcceptsTheFloatLoopAndRefusesAMissingTermPoisonAndNaN) {
  const Dims d{17, 33, 64};
  const Operands ops = random_operands(d, ElementType::f32, 5);
  const Reference ref = reference(ops);
  HostMatrix c = naive_product(ops);
  const Verification ok = compare(c, ref, Arithmetic::fp32);
  EXPECT_TRUE(ok.pass) << ok.summary();
  EXPECT_LE(ok.rel_max, ok.tolerance);
  // One product left out of one element: off by |a b|, far beyond 64 u |A||B|.
  const std::span<const float> a = ops.a.as<float>(), b = ops.b.as<float>();
  c.as<float>()[5 * d.n + 7] -= a[5 * d.k + 63] * b[63 * d.n + 7];
  const Verification missing = compare(c, ref, Arithmetic::fp32);
  EXPECT_FALSE(missing.pass);
  EXPECT_EQ(missing.mismatches, 1);
  EXPECT_EQ(missing.worst_index, 5 * d.n + 7);
  c.as<float>()[0] = std::nanf("");
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp32).pass);
  EXPECT_FALSE(compare(HostMatrix::zeros(d.c(), ElementType::f32), ref, Arithmetic::fp32).pass);
  EXPECT_THROW((void)compare(HostMatrix::zeros({d.n, d.m}, ElementType::f32), ref, Arithmetic::fp32), std::invalid_argument);
}

// Every element of the float operands A and B replaced by `round` of its bits: a narrower input
// format, as a tensor core's caller or the tensor core itself makes it.
template <typename Round>
void round_inputs(Operands& ops, Round round) {
  for (HostMatrix* m : {&ops.a, &ops.b})
    for (float& x : m->as<float>()) {
      std::uint32_t bits;
      std::memcpy(&bits, &x, 4);
      bits = round(bits);
      std::memcpy(&x, &bits, 4);
    }
}

TEST(Compare, TheTf32BoundAcceptsInputsCutTo10Bits) {
  const Dims d{31, 29, 300};
  Operands ops = random_operands(d, ElementType::f32, 9);
  const Reference ref = reference(ops);
  // Round the inputs to nearest TF32 (cvt.rna: half of the low 13 of 23 mantissa bits added to the
  // magnitude, then the 13 cleared), then multiply in float.
  round_inputs(ops, [](std::uint32_t bits) { return (bits + 0x1000u) & ~0x1FFFu; });
  const HostMatrix c = naive_product(ops);
  EXPECT_FALSE(compare(c, ref, Arithmetic::fp32).pass);
  const Verification v = compare(c, ref, Arithmetic::tf32);
  EXPECT_TRUE(v.pass) << v.summary();
}

// Inputs rounded to bfloat16 (to nearest even, 8 significant bits) and multiplied in float pass the
// BF16 bound; at k = 2 the inputs' rounding (up to 2^-8 each) is not averaged away by long sums, so
// the same result must fail the TF32 bound (2^-11 per input): the bounds tell the two apart.
TEST(Compare, TheBf16BoundAcceptsInputsRoundedTo8BitsAndTheTf32BoundDoesNot) {
  const Dims d{40, 50, 2};
  Operands ops = random_operands(d, ElementType::f32, 11);
  const Reference ref = reference(ops);
  // To nearest even on the upper 16 bits (the inputs are finite: no NaN case).
  round_inputs(ops, [](std::uint32_t bits) { return (bits + 0x7FFFu + (bits >> 16 & 1u)) & 0xFFFF0000u; });
  const HostMatrix c = naive_product(ops);
  const Verification v = compare(c, ref, Arithmetic::bf16);
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_FALSE(compare(c, ref, Arithmetic::tf32).pass);
  EXPECT_EQ(arithmetic_name(Arithmetic::bf16), "BF16");
}

// C rounded to bfloat16 (chapter 10b's step 13) on top of the inputs' rounding passes the BF16-C
// bound at k = 2, where the rounding of C is as large as an input's and no long sum averages it
// away; the same C off by 2^-6 of itself more does not.
TEST(Compare, TheBf16CBoundAcceptsCRoundedTo8Bits) {
  const Dims d{40, 50, 2};
  Operands ops = random_operands(d, ElementType::f32, 11);
  const Reference ref = reference(ops);
  const auto to_bf16 = [](std::uint32_t bits) { return (bits + 0x7FFFu + (bits >> 16 & 1u)) & 0xFFFF0000u; };
  round_inputs(ops, to_bf16);
  HostMatrix c = naive_product(ops);
  for (float& x : c.as<float>()) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    bits = to_bf16(bits);
    std::memcpy(&x, &bits, sizeof bits);
  }
  const Verification v = compare(c, ref, Arithmetic::bf16_bf16_c);
  EXPECT_TRUE(v.pass) << v.summary();
  for (float& x : c.as<float>()) x += std::ldexp(x, -6);  // 2^-6 > 2^-7 + 2^-8: past the inputs' and C's rounding
  EXPECT_FALSE(compare(c, ref, Arithmetic::bf16_bf16_c).pass);
  EXPECT_EQ(arithmetic_name(Arithmetic::bf16_bf16_c), "BF16_BF16C");
}

TEST(Work, TwoMnkFlopsAndEveryOperandOnce) {
  const Work w = gemm_work({2, 3, 5}, ElementType::f64, 4);
  EXPECT_DOUBLE_EQ(w.flops, 2.0 * 2 * 3 * 5 * 4);
  EXPECT_DOUBLE_EQ(w.bytes_min, (2.0 * 5 + 5 * 3 + 2 * 3) * 8 * 4);
  EXPECT_DOUBLE_EQ(w.items, 6.0 * 4);
  EXPECT_EQ(w.kernel, "gemm_double");
}

}  // namespace
}  // namespace gpgpu::blas

// The shares a run prints: each row over the library of its own arithmetic (TF32 over cuBLAS with
// TF32, not over strict FP32), OpenCL over CUDA's library; and no FMA share on tensor cores.
namespace gpgpu::blas {
namespace {

ResultRow gemm_row(const std::string& variant, const std::string& backend, const std::string& arithmetic, bool library,
                   double seconds) {
  ResultRow r;
  r.variant = variant;
  r.backend = backend;
  r.samples = {seconds};
  r.work = gemm_work({64, 64, 64}, ElementType::f32, 1);
  r.extra["arithmetic"] = arithmetic;
  r.extra["library"] = library;
  return r;
}

TEST(LibraryShare, EachRowIsJudgedByTheLibraryOfItsArithmetic) {
  const std::vector<ResultRow> rows{gemm_row("cublas_sgemm", "cuda", "FP32", true, 2.0),
                                    gemm_row("cublas_sgemm_tf32", "cuda", "TF32", true, 0.25),
                                    gemm_row("cuda_warptile", "cuda", "FP32", false, 4.0),
                                    gemm_row("cuda_tf32_wmma", "cuda", "TF32", false, 1.0),
                                    gemm_row("cl_warptile", "opencl", "FP32", false, 8.0),
                                    gemm_row("cpu_naive", "cpu", "FP32", false, 1.0)};
  EXPECT_DOUBLE_EQ(library_share(rows[0], rows), 1.0);
  EXPECT_DOUBLE_EQ(library_share(rows[1], rows), 1.0);   // not 8x the strict library
  EXPECT_DOUBLE_EQ(library_share(rows[2], rows), 0.5);
  EXPECT_DOUBLE_EQ(library_share(rows[3], rows), 0.25);  // over TF32 cuBLAS, not 2x strict FP32
  EXPECT_DOUBLE_EQ(library_share(rows[4], rows), 0.25);  // OpenCL over the same GPU's cuBLAS
  EXPECT_TRUE(std::isnan(library_share(rows[5], rows)));  // no CPU library in this run
}

TEST(TensorCores, TheFmaKernelBoundsOnlyTheFmaUnits) {
  GemmVariant fma, tf32, bf16, dgemm;
  tf32.tf32 = true;
  bf16.bf16 = true;
  dgemm.fp64_tensor_cores = true;
  for (ElementType t : {ElementType::f32, ElementType::f64}) {
    EXPECT_FALSE(fma.tensor_cores(t));
    EXPECT_TRUE(tf32.tensor_cores(t));
    EXPECT_TRUE(bf16.tensor_cores(t));
    EXPECT_EQ(bf16.arithmetic(t), Arithmetic::bf16);
  }
  bf16.bf16_c = true;
  EXPECT_EQ(bf16.arithmetic(ElementType::f32), Arithmetic::bf16_bf16_c);
  EXPECT_TRUE(dgemm.tensor_cores(ElementType::f64));
  EXPECT_FALSE(dgemm.tensor_cores(ElementType::f32));
}

// The compute roof is a limit (settle_peak): the fastest trusted run on its backend that beat the
// FMA kernel becomes the roof, named; a FAIL, another backend or a slower run changes nothing.
TEST(Peak, ARunThatBeatsTheFmaKernelIsTheRoof) {
  Peak peak{"FMA kernel", 1000};
  std::ostringstream out;
  settle_peak(out, Backend::cpu, peak,
              {{"cpu", "slower", 900, true}, {"cuda", "other backend", 5000, true}, {"cpu", "wrong", 4000, false}});
  EXPECT_EQ(peak.gflops, 1000);
  EXPECT_EQ(peak.name, "FMA kernel");
  EXPECT_EQ(out.str(), "");
  settle_peak(out, Backend::cpu, peak, {{"cpu", "openblas", 1050, true}, {"cpu", "openblas_again", 1020, true}});
  EXPECT_EQ(peak.gflops, 1050);
  EXPECT_NE(peak.name.find("beaten by openblas's best run (the FMA kernel: 1000.0 GFLOP/s)"), std::string::npos) << peak.name;
  EXPECT_NE(out.str().find("cpu: the FMA kernel's 1000.0 GFLOP/s was beaten by openblas"), std::string::npos) << out.str();
  Peak none{"none measured", std::nan("")};
  settle_peak(out, Backend::cpu, none, {{"cpu", "openblas", 1050, true}});
  EXPECT_TRUE(std::isnan(none.gflops));  // no FMA kernel, no roof: nothing to judge against
}

}  // namespace
}  // namespace gpgpu::blas
