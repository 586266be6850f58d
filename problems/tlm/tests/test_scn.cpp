// The node and the connect step: Johns' S is symmetric and orthogonal, the port table is
// consistent, connect is its own inverse, and one step moves every pulse one cell along its line
// (or back from a wall, inverted).
#include <algorithm>
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "gpgpu/harness/random.hpp"
#include "gpgpu/tlm/dispersion.hpp"
#include "gpgpu/tlm/reference.hpp"

namespace gpgpu::tlm {
namespace {

TEST(Scn, ScatteringMatrixIsSymmetric) {
  const auto s = scattering_matrix();
  for (int r = 0; r < kPorts; ++r)
    for (int c = 0; c < kPorts; ++c) EXPECT_EQ(s[r][c], s[c][r]) << "S[" << r << "][" << c << "]";
}

TEST(Scn, ScatteringMatrixIsOrthogonal) {
  // SᵀS = I: the scatter keeps Σv² (lossless) and, being symmetric too, undoes itself (S² = I).
  const auto s = scattering_matrix();
  for (int a = 0; a < kPorts; ++a)
    for (int b = 0; b < kPorts; ++b) {
      double dot = 0;
      for (int k = 0; k < kPorts; ++k) dot += s[k][a] * s[k][b];
      EXPECT_EQ(dot, a == b ? 1.0 : 0.0) << "column " << a << " . column " << b;
    }
}

TEST(Scn, EveryRowHasFourEntriesOfOneHalf) {
  // Johns' S: a pulse scatters into the four ports of the two lines that share its polarisation or
  // its loop current, never back into itself or straight through to the opposite port.
  const auto s = scattering_matrix();
  for (int r = 0; r < kPorts; ++r) {
    int nonzero = 0;
    for (int c = 0; c < kPorts; ++c)
      if (s[r][c] != 0) {
        ++nonzero;
        EXPECT_EQ(std::abs(s[r][c]), 0.5);
      }
    EXPECT_EQ(nonzero, 4);
    EXPECT_EQ(s[r][r], 0.0);
    EXPECT_EQ(s[r][opposite_port(r)], 0.0);
  }
}

TEST(Scn, PortTableIsConsistent) {
  // Opposite ports: the same polarisation on the same axis, the other side; the pairs of scn.hpp
  // (1/12, 2/9, 3/11, 4/8, 5/7, 6/10 in the paper's numbering); a port is polarised across its line.
  const std::set<std::pair<int, int>> pairs{{0, 11}, {1, 8}, {2, 10}, {3, 7}, {4, 6}, {5, 9}};
  for (int p = 0; p < kPorts; ++p) {
    const int q = opposite_port(p);
    EXPECT_EQ(opposite_port(q), p);
    EXPECT_EQ(port_axis(q), port_axis(p));
    EXPECT_EQ(port_side(q), -port_side(p));
    EXPECT_EQ(port_polarisation(q), port_polarisation(p));
    EXPECT_NE(port_polarisation(p), port_axis(p));
    EXPECT_TRUE(pairs.count({std::min(p, q), std::max(p, q)}));
  }
  // Each face carries its two tangential polarisations.
  for (int axis = 0; axis < 3; ++axis)
    for (int side : {-1, 1}) {
      std::set<int> pols;
      for (int p = 0; p < kPorts; ++p)
        if (port_axis(p) == axis && port_side(p) == side) pols.insert(port_polarisation(p));
      EXPECT_EQ(pols, (std::set<int>{(axis + 1) % 3, (axis + 2) % 3}));
    }
}

TEST(Scn, SourceRaisesOneNodeVoltageAndNoCurrent) {
  for (int pol = 0; pol < 3; ++pol) {
    double v[kPorts] = {};
    inject(v, pol, 2.0);
    const NodeFields<double> f = node_fields(v);
    const double volts[3] = {f.vx, f.vy, f.vz};
    for (int c = 0; c < 3; ++c) EXPECT_EQ(volts[c], c == pol ? 2.0 : 0.0);
    EXPECT_EQ(f.ix, 0.0);
    EXPECT_EQ(f.iy, 0.0);
    EXPECT_EQ(f.iz, 0.0);
  }
}

TEST(Connect, IsItsOwnInverse) {
  for (Scenario sc : {Scenario::cavity, Scenario::filter}) {
    const Mesh m = sc == Scenario::cavity ? Mesh{7, 4, 5, 1e-3} : Mesh{10, 5, 47, kWr28B / 5};
    const Structure s = make_structure(sc, m);
    const auto v = harness::random_values<double>(kPorts * m.nodes(), 5, -1.0, 1.0);
    std::vector<double> r(v.size()), back(v.size());
    connect<double>(s, v, r);
    connect<double>(s, r, back);
    EXPECT_EQ(back, v);
  }
}

// One step from a single unit pulse incident on port p of node (i, j, k) of a 5 x 5 x 5 box.
std::vector<double> one_step(const Structure& s, int p, int i, int j, int k) {
  const Mesh& m = s.mesh;
  std::vector<float> initial(static_cast<std::size_t>(kPorts * m.nodes()), 0.0f);
  initial[static_cast<std::size_t>(p * m.nodes() + m.index(i, j, k))] = 1.0f;
  Drive quiet;  // no source
  return run_reference(s, quiet, initial, 1).result.pulses;
}

TEST(Connect, APulseMovesOneCellPerStepAlongItsLine) {
  // Scatter sends a unit pulse on port p into four ports q with S[q][p] = ±½; connect carries each
  // to the neighbour across q's face, which receives it on the opposite port. Nothing else moves.
  const Structure s = make_structure(Scenario::cavity, {5, 5, 5, 1e-3});
  const auto S = scattering_matrix();
  const Mesh& m = s.mesh;
  for (int p = 0; p < kPorts; ++p) {
    const std::vector<double> v = one_step(s, p, 2, 2, 2);
    double expected_energy = 0;
    for (int q = 0; q < kPorts; ++q) {
      if (S[q][p] == 0) continue;
      const int d[3] = {port_axis(q) == 0 ? port_side(q) : 0, port_axis(q) == 1 ? port_side(q) : 0,
                        port_axis(q) == 2 ? port_side(q) : 0};
      const auto at = static_cast<std::size_t>(opposite_port(q) * m.nodes() + m.index(2 + d[0], 2 + d[1], 2 + d[2]));
      EXPECT_EQ(v[at], S[q][p]) << "port " << p << " -> " << q;
      expected_energy += S[q][p] * S[q][p];
    }
    double energy = 0;
    for (double x : v) energy += x * x;
    EXPECT_EQ(energy, expected_energy) << "port " << p << ": pulses elsewhere";
  }
}

TEST(Connect, AWallReflectsWithMinusOne) {
  // A pulse scattered towards the box's wall comes back into the same port of the same node,
  // inverted; towards an open face it leaves. Node (0, 0, 0): its three lower faces are walls.
  const Structure s = make_structure(Scenario::cavity, {3, 3, 3, 1e-3});
  const auto S = scattering_matrix();
  const Mesh& m = s.mesh;
  for (int p = 0; p < kPorts; ++p) {
    const std::vector<double> v = one_step(s, p, 0, 0, 0);
    for (int q = 0; q < kPorts; ++q) {
      if (S[q][p] == 0 || port_side(q) > 0) continue;
      EXPECT_EQ(v[static_cast<std::size_t>(q * m.nodes())], kWallReflection * S[q][p]) << "port " << p << " -> " << q;
    }
  }
}

TEST(Connect, AnIrisIsAWallOnBothSidesAndItsWindowIsOpen) {
  const Mesh m{10, 5, 47, kWr28B / 5};
  const Structure s = make_structure(Scenario::filter, m);
  ASSERT_EQ(s.irises.size(), 4u);
  const Iris& iris = s.irises.front();
  // Outside the window both nodes next to the plate see a wall; inside neither does.
  EXPECT_TRUE(s.wall(0, 0, iris.k, 2, -1));
  EXPECT_TRUE(s.wall(0, 0, iris.k - 1, 2, +1));
  EXPECT_FALSE(s.wall(iris.x0, 0, iris.k, 2, -1));
  EXPECT_FALSE(s.wall(iris.x0, 0, iris.k - 1, 2, +1));
  EXPECT_FALSE(s.wall(0, 0, iris.k, 0, +1));  // the plate is a z-face only
}

}  // namespace
}  // namespace gpgpu::tlm
