/// @file symmetric_storage.hpp
/// @brief Exercise 01: weighted Jacobi with only the 5 unique diagonals of the symmetric matrix
/// (the paper's "future work": store C, E, NW, N, NE; read W, S, SW, SE from their partners).
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"

namespace ex01 {

/// The stored diagonals, in this order.
enum class Upper : int { C = 0, E, NW, N, NE };

/// The upper half of a symmetric 9-point matrix plus its main diagonal.
///
/// diag[u] has `offset` (at least nx+1) leading zeros, then the nx*ny coefficients of that diagonal
/// (diag[u][offset + k] = A(k, k + its column offset)), then at least nx+1 trailing zeros, so
/// that diag[u][offset + k + shift] is a valid read for every |shift| <= nx+1.
struct SymmetricStencil {
  gpgpu::jacobi::Grid grid;
  std::int64_t offset = 0;
  std::array<std::vector<float>, 5> diag;
};

/// Keeps the main diagonal and the four upper diagonals of A (with the padding described above).
SymmetricStencil pack_symmetric(const gpgpu::jacobi::Stencil9& A);

/// Runs `iters` weighted Jacobi iterations x ← (1−ω)x + ωD⁻¹(f − (L+U)x) from x0 using only the
/// symmetric storage; returns the nx*ny unknowns.
std::vector<float> jacobi_symmetric(const SymmetricStencil& S, std::span<const float> rhs,
                                    std::span<const float> x0, int iters, float omega);

}  // namespace ex01
