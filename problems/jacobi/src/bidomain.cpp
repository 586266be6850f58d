#include "gpgpu/jacobi/bidomain.hpp"

#include <cmath>
#include <numbers>

namespace gpgpu::jacobi {
namespace {

using ElementMatrix = std::array<std::array<double, 4>, 4>;

// Mesh coordinates (ix, iy) of local node l of the element whose lower-left node is (ex, ey).
constexpr int local_x(int l) { return l & 1; }
constexpr int local_y(int l) { return l >> 1; }

// Element stiffness for both operators, for one row of elements (θ depends only on y).
struct ElementRow {
  ElementMatrix total;          // K(σi + σe): the matrix
  ElementMatrix intracellular;  // K(σi): the right-hand side operator
};

ElementRow element_row(const BidomainParams& p, double centre_y) {
  const double theta = fibre_angle(p, centre_y);
  const Tensor2 si = fibre_conductivity(p.sigma_il, p.sigma_it, theta);
  const Tensor2 se = fibre_conductivity(p.sigma_el, p.sigma_et, theta);
  const Tensor2 sum{si.xx + se.xx, si.xy + se.xy, si.yy + se.yy};
  return {q1_element_stiffness(sum), q1_element_stiffness(si)};
}

// Gathers row k of the matrix from the four elements around interior mesh node (mx, my); element
// (ex, ey) contributes scale(ex) * K(ey). Each entry is a sum of at most two such products added to
// zero, the same products for A(k,l) and A(l,k), and floating-point addition is commutative: the
// matrix comes out exactly (bitwise) symmetric.
template <typename MatrixOf, typename ScaleOf>
void gather_row(const Grid& g, int mx, int my, const MatrixOf& element_matrix, const ScaleOf& scale,
                std::array<double, 9>& row) {
  row.fill(0.0);
  for (int ey = my - 1; ey <= my; ++ey) {
    for (int ex = mx - 1; ex <= mx; ++ex) {
      const ElementMatrix& K = element_matrix(ey);
      const double s = scale(ex);
      const int a = (mx - ex) + 2 * (my - ey);  // local index of (mx, my) in this element
      for (int b = 0; b < 4; ++b) {
        const int nx_b = ex + local_x(b);
        const int ny_b = ey + local_y(b);
        const bool interior = nx_b >= 1 && nx_b <= g.nx && ny_b >= 1 && ny_b <= g.ny;
        if (interior) row[idx(dir_of(nx_b - mx, ny_b - my))] += s * K[a][b];
      }
    }
  }
}

}  // namespace

Tensor2 fibre_conductivity(double along, double across, double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  return {along * c * c + across * s * s, (along - across) * c * s, along * s * s + across * c * c};
}

std::array<std::array<double, 4>, 4> q1_element_stiffness(const Tensor2& sigma) {
  // On the unit reference square; for a square of side h the gradients scale by 1/h and the area
  // by h², so the result is the same for every h.
  const double g = 0.5 / std::sqrt(3.0);
  const std::array<double, 2> points{0.5 - g, 0.5 + g};  // 2-point Gauss-Legendre on [0, 1]
  const double weight = 0.25;
  ElementMatrix K{};
  for (double xi : points) {
    for (double eta : points) {
      // Gradients of N0 = (1-ξ)(1-η), N1 = ξ(1-η), N2 = (1-ξ)η, N3 = ξη.
      const std::array<double, 4> gx{-(1 - eta), (1 - eta), -eta, eta};
      const std::array<double, 4> gy{-(1 - xi), -xi, (1 - xi), xi};
      for (int a = 0; a < 4; ++a) {
        for (int b = a; b < 4; ++b) {
          K[a][b] += weight * (gx[a] * (sigma.xx * gx[b] + sigma.xy * gy[b]) +
                               gy[a] * (sigma.xy * gx[b] + sigma.yy * gy[b]));
        }
      }
    }
  }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < a; ++b) K[a][b] = K[b][a];  // mirror: exact symmetry
  return K;
}

double fibre_angle(const BidomainParams& p, double y) {
  const double deg = p.theta_bottom_deg + (p.theta_top_deg - p.theta_bottom_deg) * y;
  return deg * std::numbers::pi / 180.0;
}

double coupling_scale(const BidomainParams& p, double x) { return 1.0 - p.coupling_gradient * x; }

double transmembrane_voltage(const BidomainParams& p, double x, double y) {
  const double r = std::hypot(x - p.stimulus_x, y - p.stimulus_y);
  const double inside = 0.5 * (1.0 - std::tanh((r - p.stimulus_radius) / p.front_width));
  return p.vm_rest + (p.vm_excited - p.vm_rest) * inside;
}

LinearSystem assemble_bidomain(const Grid& grid, const BidomainParams& params) {
  validate_grid(grid);
  const int nx = grid.nx, ny = grid.ny;
  const std::int64_t n = grid.nodes();
  const int mesh_x = nx + 2, mesh_y = ny + 2;

  // Element row ey spans mesh rows ey..ey+1; its centre is at y = (ey + 0.5) / (ny + 1). The
  // stiffness is linear in σ, so an element's matrix is its column's scale times its row's matrix.
  std::vector<ElementRow> rows(static_cast<std::size_t>(ny + 1));
  for (int ey = 0; ey <= ny; ++ey) rows[static_cast<std::size_t>(ey)] = element_row(params, (ey + 0.5) / (ny + 1));
  std::vector<double> scales(static_cast<std::size_t>(nx + 1));
  for (int ex = 0; ex <= nx; ++ex) scales[static_cast<std::size_t>(ex)] = coupling_scale(params, (ex + 0.5) / (nx + 1));
  const auto scale = [&](int ex) { return scales[static_cast<std::size_t>(ex)]; };

  LinearSystem sys;
  sys.grid = grid;
  sys.A.grid = grid;
  for (auto& d : sys.A.diag) d.assign(static_cast<std::size_t>(n), 0.0f);
  sys.rhs.assign(static_cast<std::size_t>(n), 0.0f);
  sys.vm.resize(static_cast<std::size_t>(mesh_x) * mesh_y);
  // Each node's value alone (a tanh and a hypot): in parallel, as the rows below, and the same bits
  // for any number of threads. At 16384² the serial loop took most of the assembly's time.
#pragma omp parallel for schedule(static)
  for (int my = 0; my < mesh_y; ++my)
    for (int mx = 0; mx < mesh_x; ++mx)
      sys.vm[static_cast<std::size_t>(my) * mesh_x + mx] = static_cast<float>(
          transmembrane_voltage(params, static_cast<double>(mx) / (nx + 1), static_cast<double>(my) / (ny + 1)));

  const auto total = [&](int ey) -> const ElementMatrix& { return rows[static_cast<std::size_t>(ey)].total; };
#pragma omp parallel for schedule(static)
  for (int my = 1; my <= ny; ++my) {
    std::array<double, 9> row{};
    for (int mx = 1; mx <= nx; ++mx) {
      const std::int64_t k = static_cast<std::int64_t>(my - 1) * nx + (mx - 1);
      gather_row(grid, mx, my, total, scale, row);
      for (Dir d : kAllDirs) sys.A.diag[idx(d)][static_cast<std::size_t>(k)] = static_cast<float>(row[idx(d)]);
      // f = −K(σi) Vm over all mesh neighbours, the Dirichlet ring included (Vm is known there).
      // Computed from the float Vm that is stored, so the dumped data reproduce it.
      double f = 0.0;
      for (int ey = my - 1; ey <= my; ++ey) {
        for (int ex = mx - 1; ex <= mx; ++ex) {
          const ElementMatrix& Ki = rows[static_cast<std::size_t>(ey)].intracellular;
          const int a = (mx - ex) + 2 * (my - ey);
          for (int b = 0; b < 4; ++b) {
            const std::size_t m = static_cast<std::size_t>(ey + local_y(b)) * mesh_x + (ex + local_x(b));
            f -= scale(ex) * Ki[a][b] * static_cast<double>(sys.vm[m]);
          }
        }
      }
      sys.rhs[static_cast<std::size_t>(k)] = static_cast<float>(f);
    }
  }
  return sys;
}

Stencil9 assemble_constant_conductivity(const Grid& grid, const Tensor2& sigma) {
  validate_grid(grid);
  const ElementMatrix K = q1_element_stiffness(sigma);
  Stencil9 A;
  A.grid = grid;
  for (auto& d : A.diag) d.assign(static_cast<std::size_t>(grid.nodes()), 0.0f);
  const auto same = [&](int) -> const ElementMatrix& { return K; };
  const auto unit = [](int) { return 1.0; };
  std::array<double, 9> row{};
  for (int my = 1; my <= grid.ny; ++my) {
    for (int mx = 1; mx <= grid.nx; ++mx) {
      gather_row(grid, mx, my, same, unit, row);
      const std::int64_t k = static_cast<std::int64_t>(my - 1) * grid.nx + (mx - 1);
      for (Dir d : kAllDirs) A.diag[idx(d)][static_cast<std::size_t>(k)] = static_cast<float>(row[idx(d)]);
    }
  }
  return A;
}

}  // namespace gpgpu::jacobi
