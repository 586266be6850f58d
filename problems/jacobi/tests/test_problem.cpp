// The assembled bidomain system: the closed-form stencil, exact symmetry, zeros exactly where a
// neighbour is outside the grid, and a right-hand side that is zero where Vm is flat.
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/bidomain.hpp"

namespace gpgpu::jacobi {
namespace {

// The stencil of the chapter text for constant σ = [[sxx, sxy], [sxy, syy]].
std::array<double, 9> closed_form_stencil(const Tensor2& s) {
  std::array<double, 9> st{};
  st[idx(Dir::C)] = 4.0 * (s.xx + s.yy) / 3.0;
  st[idx(Dir::E)] = st[idx(Dir::W)] = (s.yy - 2.0 * s.xx) / 3.0;
  st[idx(Dir::N)] = st[idx(Dir::S)] = (s.xx - 2.0 * s.yy) / 3.0;
  st[idx(Dir::NE)] = st[idx(Dir::SW)] = -(s.xx + s.yy) / 6.0 - s.xy / 2.0;
  st[idx(Dir::NW)] = st[idx(Dir::SE)] = -(s.xx + s.yy) / 6.0 + s.xy / 2.0;
  return st;
}

class ConstantConductivity : public ::testing::TestWithParam<Tensor2> {};

TEST_P(ConstantConductivity, InteriorRowEqualsClosedFormStencil) {
  const Tensor2 sigma = GetParam();
  const Grid g{5, 4};
  const Stencil9 A = assemble_constant_conductivity(g, sigma);
  const auto expected = closed_form_stencil(sigma);
  // Every row gets the same stencil (zeros aside); check a row with all eight neighbours.
  const std::int64_t k = 2 * g.nx + 2;
  for (Dir d : kAllDirs) {
    const double scale = std::abs(expected[idx(Dir::C)]);
    // Float storage of a double value: relative rounding 2^-24 of the centre's magnitude.
    EXPECT_NEAR(A.at(d, k), expected[idx(d)], 1e-6 * scale) << "direction " << name(d);
  }
}

INSTANTIATE_TEST_SUITE_P(Tensors, ConstantConductivity,
                         ::testing::Values(Tensor2{1.0, 0.0, 1.0},     // isotropic: 8/3 and -1/3
                                           Tensor2{0.79, 0.0, 0.259},  // fibres along x
                                           fibre_conductivity(0.79, 0.259, 0.7),
                                           fibre_conductivity(0.17, 0.019, -1.0)));

TEST(ElementStiffness, IsSymmetricWithZeroRowSums) {
  const auto K = q1_element_stiffness(fibre_conductivity(0.62, 0.24, 0.4));
  for (int a = 0; a < 4; ++a) {
    double row = 0;
    for (int b = 0; b < 4; ++b) {
      EXPECT_EQ(K[a][b], K[b][a]);
      row += K[a][b];
    }
    EXPECT_NEAR(row, 0.0, 1e-15);  // constants are in the null space of the Neumann element
  }
}

TEST(FibreConductivity, RotatesThePrincipalValues) {
  const Tensor2 s = fibre_conductivity(2.0, 0.5, std::acos(-1.0) / 2);  // fibres along y
  EXPECT_NEAR(s.xx, 0.5, 1e-12);
  EXPECT_NEAR(s.yy, 2.0, 1e-12);
  EXPECT_NEAR(s.xy, 0.0, 1e-12);
  const Tensor2 r = fibre_conductivity(2.0, 0.5, 0.3);
  EXPECT_NEAR(r.xx + r.yy, 2.5, 1e-12);                     // trace is invariant
  EXPECT_NEAR(r.xx * r.yy - r.xy * r.xy, 1.0, 1e-12);       // so is the determinant
}

class AssembledSystem : public ::testing::TestWithParam<Grid> {};

TEST_P(AssembledSystem, MatrixIsExactlySymmetric) {
  const Grid g = GetParam();
  const LinearSystem sys = assemble_bidomain(g);
  for (std::int64_t k = 0; k < g.nodes(); ++k) {
    const int i = static_cast<int>(k % g.nx), j = static_cast<int>(k / g.nx);
    for (Dir d : kAllDirs) {
      const int ni = i + dx(d), nj = j + dy(d);
      if (ni < 0 || ni >= g.nx || nj < 0 || nj >= g.ny) continue;
      const std::int64_t l = k + offset(d, g.nx);
      ASSERT_EQ(sys.A.at(d, k), sys.A.at(opposite(d), l)) << "A(" << k << "," << l << ") direction " << name(d);
    }
  }
}

TEST_P(AssembledSystem, DiagonalsAreZeroExactlyWhereTheNeighbourIsOutside) {
  const Grid g = GetParam();
  const LinearSystem sys = assemble_bidomain(g);
  for (std::int64_t k = 0; k < g.nodes(); ++k) {
    const int i = static_cast<int>(k % g.nx), j = static_cast<int>(k / g.nx);
    EXPECT_GT(sys.A.at(Dir::C, k), 0.0f);
    for (Dir d : kAllDirs) {
      const bool outside = i + dx(d) < 0 || i + dx(d) >= g.nx || j + dy(d) < 0 || j + dy(d) >= g.ny;
      if (outside) {
        ASSERT_EQ(sys.A.at(d, k), 0.0f) << "k=" << k << " " << name(d);
      } else {
        ASSERT_NE(sys.A.at(d, k), 0.0f) << "k=" << k << " " << name(d);  // anisotropy: no coupling vanishes
      }
    }
  }
}

TEST_P(AssembledSystem, RightHandSideIsFiniteAndVmWithinItsRange) {
  const Grid g = GetParam();
  const LinearSystem sys = assemble_bidomain(g);
  ASSERT_EQ(static_cast<std::int64_t>(sys.rhs.size()), g.nodes());
  ASSERT_EQ(sys.vm.size(), static_cast<std::size_t>(g.nx + 2) * static_cast<std::size_t>(g.ny + 2));
  for (float f : sys.rhs) ASSERT_TRUE(std::isfinite(f));
  const BidomainParams p;
  for (float v : sys.vm) {
    ASSERT_GE(v, p.vm_rest - 1e-3);
    ASSERT_LE(v, p.vm_excited + 1e-3);
  }
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, AssembledSystem,
                         ::testing::Values(Grid{1, 1}, Grid{2, 7}, Grid{7, 2}, Grid{17, 33}, Grid{17, 1023}),
                         [](const auto& info) { return info.param.str(); });

TEST(BidomainRhs, VanishesForAFlatTransmembraneVoltage) {
  // K(σi) applied to a constant is zero in every interior row: the source is the gradient of Vm.
  BidomainParams p;
  p.vm_excited = p.vm_rest;
  const LinearSystem sys = assemble_bidomain({23, 19}, p);
  for (float f : sys.rhs) EXPECT_NEAR(f, 0.0f, 1e-4f);  // cancellation of |Ki·Vm| ~ 85·0.1
}

TEST(BidomainRhs, IsNonzeroNearTheWaveFrontOnly) {
  const Grid g{64, 64};
  const LinearSystem sys = assemble_bidomain(g);
  float largest = 0;
  for (float f : sys.rhs) largest = std::max(largest, std::abs(f));
  EXPECT_GT(largest, 1e-3f);
  // Far from the excited disc (corner node) the source is negligible compared with the front.
  EXPECT_LT(std::abs(sys.rhs[static_cast<std::size_t>(g.nodes() - 1)]), 1e-3f * largest);
}

TEST(BidomainMatrix, EveryDiagonalVariesInSpace) {
  const LinearSystem sys = assemble_bidomain({40, 40});
  for (Dir d : kAllDirs) {
    std::set<float> values(sys.A.diag[idx(d)].begin(), sys.A.diag[idx(d)].end());
    values.erase(0.0f);
    // 40 element columns × 40 element rows: hundreds of distinct values, not one per row.
    EXPECT_GT(values.size(), 300u) << name(d) << " should change with the fibre angle and the coupling";
  }
}

TEST(BidomainMatrix, OneByOneGridHasOnlyItsCentreEntry) {
  // All eight neighbours of the single unknown lie on the Dirichlet ring.
  const LinearSystem one = assemble_bidomain({1, 1});
  for (Dir d : kAllDirs) {
    if (d != Dir::C) {
      EXPECT_EQ(one.A.at(d, 0), 0.0f);
    }
  }
  EXPECT_GT(one.A.at(Dir::C, 0), 0.0f);
}

TEST(Grid, RejectsEmptyAndUnindexableSizes) {
  EXPECT_THROW(validate_grid({0, 5}), UsageError);
  EXPECT_THROW(validate_grid({5, -1}), UsageError);
  EXPECT_THROW(validate_grid({200000, 200000}), UsageError);
  EXPECT_NO_THROW(validate_grid({1, 1}));
  EXPECT_NO_THROW(validate_grid({4096, 4096}));
}

}  // namespace
}  // namespace gpgpu::jacobi
