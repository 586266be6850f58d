// Host matrices: random operands of both signs in every type, the CPU references on rectangular and
// degenerate shapes, exact comparison that catches one wrong element or a poisoned one, the work
// table, and the paper's tables.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/matrix.hpp"
#include "gpgpu/matrix/paper003.hpp"
#include "gpgpu/matrix/work.hpp"

namespace gpgpu::matrix {
namespace {

class EveryType : public ::testing::TestWithParam<ElementType> {};

TEST_P(EveryType, RandomOperandsHaveBothSignsAndAreReproducible) {
  const HostMatrix a = random_matrix({31, 17}, GetParam(), 7);
  const HostMatrix b = random_matrix({31, 17}, GetParam(), 7);
  EXPECT_TRUE(compare(a, b).pass);
  dispatch(GetParam(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto v = a.as<T>();
    EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](T x) { return x < 0; }));
    EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](T x) { return x > 0; }));
  });
  EXPECT_EQ(a.bytes(), 31u * 17u * static_cast<unsigned>(type_bytes(GetParam())));
}

TEST_P(EveryType, TransposeOfARectangleMovesEveryElement) {
  for (const Shape s : {Shape{1, 1}, Shape{1, 9}, Shape{9, 1}, Shape{17, 1023}, Shape{33, 5}}) {
    const HostMatrix a = random_matrix(s, GetParam(), 3);
    const HostMatrix t = transpose_reference(a);
    ASSERT_EQ(t.shape(), s.transposed());
    dispatch(GetParam(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (std::int64_t r = 0; r < s.rows; ++r)
        for (std::int64_t c = 0; c < s.cols; ++c)
          ASSERT_EQ(t.as<T>()[static_cast<std::size_t>(c * s.rows + r)], a.as<T>()[static_cast<std::size_t>(r * s.cols + c)]);
    });
    EXPECT_TRUE(compare(transpose_reference(t), a).pass) << s.str();
  }
}

TEST_P(EveryType, AddIsElementwiseAndExact) {
  const HostMatrix a = random_matrix({5, 7}, GetParam(), 1);
  const HostMatrix b = random_matrix({5, 7}, GetParam(), 2);
  const HostMatrix c = add_reference(a, b);
  dispatch(GetParam(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < 35; ++i) EXPECT_EQ(c.as<T>()[i], T(a.as<T>()[i] + b.as<T>()[i]));
  });
}

TEST_P(EveryType, ComparisonCatchesOneWrongElement) {
  const HostMatrix a = random_matrix({64, 64}, GetParam(), 4);
  HostMatrix b = a;
  dispatch(GetParam(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    b.as<T>()[4000] += T(1);
  });
  const Verification v = compare(b, a);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.mismatches, 1);
  EXPECT_EQ(v.worst_index, 4000);
}

INSTANTIATE_TEST_SUITE_P(Matrix, EveryType, ::testing::Values(ElementType::f32, ElementType::f64, ElementType::i32),
                         [](const auto& info) { return std::string(type_name(info.param)); });

TEST(Matrix, PoisonedFloatFailsAsNonFinite) {
  const HostMatrix a = random_matrix({3, 3}, ElementType::f32, 1);
  HostMatrix b = a;
  b.as<float>()[8] = std::numeric_limits<float>::quiet_NaN();
  const Verification v = compare(b, a);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.non_finite, 1);
}

TEST_P(EveryType, PoisonIsNoValueAnOperationCanProduce) {
  const HostMatrix p = poisoned({4, 5}, GetParam());
  EXPECT_EQ(p.shape(), (Shape{4, 5}));
  dispatch(GetParam(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (T x : p.as<T>()) {
      if constexpr (std::is_integral_v<T>) {
        EXPECT_GT(x, 2 * (1 << 20));  // beyond any sum of two operands
      } else {
        EXPECT_TRUE(std::isnan(x));
      }
    }
  });
  if (GetParam() != ElementType::i32) {
    EXPECT_FALSE(compare(p, p).pass) << "NaN never equals NaN";
  }
}

TEST(Matrix, ShapesAndTypesThatDifferAreAProgrammingError) {
  EXPECT_THROW((void)compare(HostMatrix::zeros({2, 3}, ElementType::f32), HostMatrix::zeros({3, 2}, ElementType::f32)),
               std::invalid_argument);
  EXPECT_THROW((void)compare(HostMatrix::zeros({2, 3}, ElementType::f32), HostMatrix::zeros({2, 3}, ElementType::i32)),
               std::invalid_argument);
}

TEST(Matrix, TypeNames) {
  EXPECT_EQ(parse_type("double"), ElementType::f64);
  EXPECT_THROW((void)parse_type("half"), UsageError);
}

TEST(MatrixWork, FormulaOneCountsEveryOperandOnce) {
  const Work add = work(Op::add, {1000, 300}, ElementType::f64, 4);
  EXPECT_DOUBLE_EQ(add.bytes_min, 4 * 3.0 * 300000 * 8);
  EXPECT_DOUBLE_EQ(add.flops, 4 * 300000.0);
  EXPECT_EQ(add.reads, 2);
  const Work t = work(Op::transpose, {1000, 300}, ElementType::i32, 1);
  EXPECT_DOUBLE_EQ(t.bytes_min, 2.0 * 300000 * 4);
  EXPECT_DOUBLE_EQ(t.flops, 0);
  EXPECT_DOUBLE_EQ(work(Op::add, {10, 10}, ElementType::i32, 1).flops, 0);  // integer adds are no FLOPs
  const StreamMix m = stream_mix(Op::add, {1000, 300}, ElementType::f64);
  EXPECT_EQ(m.reads, 2);
  EXPECT_EQ(m.element_bytes, 8);
}

TEST(Paper003, AddTimesIncludeTheCopies) {
  // Tab. 8, CUDA at 4096: 3 x 4096² x 4 B in 81.934 ms is 2.46 GB/s, far below the C1060's
  // 102 GB/s (sec. 5.2) and near PCIe 2.0's few GB/s: the copies are in the time.
  const auto& row = paper003::kAddTranspose[1];
  ASSERT_EQ(row.implementation, "CUDA");
  const double gbs = 3.0 * 4096 * 4096 * 4 / (row.ms[8] * 1e-3) / 1e9;
  EXPECT_NEAR(gbs, 2.46, 0.01);
  EXPECT_EQ(paper003::size_index(4096), 8);
  EXPECT_EQ(paper003::size_index(100), -1);
}

TEST(Paper003, TheRatiosRowMatchTheTimes) {
  // "CUDA vs OpenCL, Normal" of Tab. 8 at 4096 (3.7) and of Tab. 10 at 4096 (2.2) from the times.
  EXPECT_NEAR(paper003::kAddTranspose[2].ms[8] / paper003::kAddTranspose[1].ms[8], 3.7, 0.05);
  EXPECT_NEAR(paper003::kAddTranspose[8].ms[8] / paper003::kAddTranspose[7].ms[8], 2.2, 0.05);
}

}  // namespace
}  // namespace gpgpu::matrix
