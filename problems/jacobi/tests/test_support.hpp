// A dense direct solver for small grids (random data: gpgpu/jacobi/checks.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"
#include "gpgpu/jacobi/checks.hpp"

namespace gpgpu::jacobi::checks {

/// The matrix as a dense row-major N×N array (small grids only).
std::vector<double> dense_matrix(const Stencil9& A);

/// Solves A x = f by Cholesky factorisation of the dense matrix (A must be SPD; small grids only).
std::vector<double> direct_solve(const Stencil9& A, const std::vector<float>& f);

}  // namespace gpgpu::jacobi::checks
