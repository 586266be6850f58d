/// @file problem.hpp
/// @brief The elliptic part of the bidomain equations, K(σi+σe) φe = −K(σi) Vm, assembled from
/// bilinear (Q1) square finite elements with 2×2 Gauss quadrature (paper 000, sections 2-3).
///
/// The grid of unknowns is the nx × ny interior of an (nx+2) × (ny+2) node mesh whose outer ring
/// carries the Dirichlet condition φe = 0. Those ring columns are dropped from the matrix
/// (symmetric elimination: φe = 0 there adds nothing to the right-hand side), so every unknown is
/// a real mesh node and the diagonals hold zeros exactly where a neighbour is outside the grid.
///
/// In 2D the Q1 stiffness of a square element does not depend on its size h, so neither the
/// matrix nor the right-hand side does: the problem is defined by nx, ny and the parameters.
#pragma once
#include <array>
#include <vector>

#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/jacobi/stencil.hpp"

namespace gpgpu::jacobi {

/// Physical parameters of the test problem. Conductivities in S/m (Clerc 1976), voltages in mV.
struct BidomainParams {
  double sigma_il = 0.17;   ///< intracellular, along the fibres
  double sigma_it = 0.019;  ///< intracellular, across the fibres
  double sigma_el = 0.62;   ///< extracellular, along the fibres
  double sigma_et = 0.24;   ///< extracellular, across the fibres
  double theta_bottom_deg = -60.0;  ///< fibre angle at y = 0; rotates linearly in y ...
  double theta_top_deg = 60.0;      ///< ... to this angle at y = 1 (transmural rotation)
  /// Conductivities fall linearly by this fraction from x = 0 to x = 1 (a gradient in cell
  /// coupling). Rotation alone leaves the main diagonal constant, since 4(σxx+σyy)/3 is the
  /// trace; the gradient makes every diagonal vary in space, as in a real heart.
  double coupling_gradient = 0.3;
  double vm_rest = -85.0;           ///< resting transmembrane voltage
  double vm_excited = 20.0;         ///< voltage inside the excited region
  double stimulus_x = 0.35;         ///< centre of the excited region (normalised coordinates)
  double stimulus_y = 0.45;
  double stimulus_radius = 0.20;    ///< radius of the excited region (normalised)
  double front_width = 0.025;       ///< width of the tanh-shaped wave front (normalised)
};

/// A symmetric 2×2 conductivity tensor [[xx, xy], [xy, yy]].
struct Tensor2 {
  double xx = 0, xy = 0, yy = 0;
};

/// σ = R(θ) diag(along, across) R(θ)ᵀ: conductivity of fibres at angle θ (radians) to the x axis.
Tensor2 fibre_conductivity(double along, double across, double theta);

/// Element stiffness ∫ ∇Nₐ · σ ∇N_b of a square Q1 element with 2×2 Gauss quadrature (exact for
/// constant σ). Local nodes: 0 = (0,0), 1 = (1,0), 2 = (0,1), 3 = (1,1). Exactly symmetric.
std::array<std::array<double, 4>, 4> q1_element_stiffness(const Tensor2& sigma);

/// The 9 diagonals of the matrix as the paper stores them (Fig. 2): nine arrays of equal length
/// nx*ny, diag[d][k] = A(k, k + offset(d, nx)), zero wherever that neighbour is outside the grid.
struct Stencil9 {
  Grid grid;
  std::array<std::vector<float>, 9> diag;
  [[nodiscard]] float at(Dir d, std::int64_t k) const { return diag[idx(d)][static_cast<std::size_t>(k)]; }
};

/// The linear system A x = f in single precision, as every chapter solves it.
struct LinearSystem {
  Grid grid;
  Stencil9 A;                ///< K(σi + σe), Dirichlet ring eliminated
  std::vector<float> rhs;    ///< f = −K(σi) Vm, one value per unknown
  std::vector<float> vm;     ///< Vm on the whole (nx+2) × (ny+2) mesh, ring included
};

/// Fibre angle (radians) of an element whose centre is at normalised height y in [0, 1].
double fibre_angle(const BidomainParams& p, double y);

/// Factor on all conductivities of an element whose centre is at normalised x in [0, 1].
double coupling_scale(const BidomainParams& p, double x);

/// Transmembrane voltage at normalised coordinates (x, y): a smooth excited disc.
double transmembrane_voltage(const BidomainParams& p, double x, double y);

/// Assembles the system on the given grid (validated with validate_grid()).
LinearSystem assemble_bidomain(const Grid& grid, const BidomainParams& params = {});

/// Assembles the matrix only, for a conductivity that is the same in every element (used to check
/// the closed-form stencil of the chapter text in the tests).
Stencil9 assemble_constant_conductivity(const Grid& grid, const Tensor2& sigma);

}  // namespace gpgpu::jacobi
