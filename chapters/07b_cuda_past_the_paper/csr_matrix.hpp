/// @file csr_matrix.hpp
/// @brief The Jacobi system in compressed sparse row form (CSR), the format a user hands to a
/// general sparse library (cuSPARSE's SpMV): chapter 07b's library peer runs on it. Plain C++, so
/// the assembly is tested on any machine (test_csr_matrix.cpp).
///
/// CSR stores, row after row, only the entries that exist: row k's entries are
/// values[row_offsets[k] .. row_offsets[k+1]), in the columns columns[...] (ascending). For the
/// nine-point stencil that is up to 9 values and 9 column indices per row, plus one offset per row:
/// about 76 bytes per node where the nine diagonal arrays hold 36, because every value carries its
/// column with it. What the paper's storage knows implicitly (the column is k + offset(d)), CSR
/// spells out.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"

namespace ch07b {

/// A square matrix in CSR form with 0-based 32-bit indices (cuSPARSE's CUSPARSE_INDEX_32I).
struct CsrMatrix {
  std::int64_t rows = 0;
  std::vector<std::int32_t> row_offsets;  ///< rows + 1 entries; the last is the number of non-zeros
  std::vector<std::int32_t> columns;      ///< one per stored entry, ascending within a row
  std::vector<float> values;              ///< one per stored entry
  [[nodiscard]] std::int64_t nonzeros() const { return static_cast<std::int64_t>(values.size()); }
};

/// Stored entries of the nine-point matrix on `grid`: 9 per node, less the neighbours outside the
/// grid (9 nx ny − 6 (nx + ny) + 4 for nx, ny >= 2).
[[nodiscard]] std::int64_t stencil_nonzeros(const gpgpu::jacobi::Grid& grid);

/// Bytes of a CsrMatrix on `grid` (values, columns, row offsets), for the device-memory check.
[[nodiscard]] double csr_bytes(const gpgpu::jacobi::Grid& grid);

/// A itself in CSR form: row k holds A(k, k + offset(d)) for every direction d whose neighbour lies
/// inside the grid (the stored zeros of the paper's padded diagonals are left out). Throws
/// UsageError when the entries do not fit 32-bit indices.
[[nodiscard]] CsrMatrix csr_from_diagonals(const gpgpu::jacobi::Stencil9& A);

/// The weighted Jacobi step as one sparse matrix-vector product plus a vector:
///   x ← (1 − ω) x + ω D⁻¹ (f − (L+U) x) = M x + c,  M = I − ω D⁻¹ A,  c = ω D⁻¹ f,
/// with M in CSR form (A's sparsity) and every entry computed in double and rounded once to float.
struct JacobiCsr {
  CsrMatrix M;
  std::vector<float> c;
};
[[nodiscard]] JacobiCsr jacobi_iteration_csr(const gpgpu::jacobi::LinearSystem& sys, double omega);

/// y = M x in double precision (the tests' CPU product).
[[nodiscard]] std::vector<double> multiply(const CsrMatrix& M, std::span<const double> x);

}  // namespace ch07b
