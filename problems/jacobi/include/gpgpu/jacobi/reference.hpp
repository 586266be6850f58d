/// @file reference.hpp
/// @brief The CPU double-precision reference every chapter compares against, and the residual.
///
/// The reference runs the same weighted Jacobi iteration as the chapters,
///   x ← (1−ω) x + ω D⁻¹ (f − (L+U) x),
/// on the same single-precision matrix and right-hand side (their float values are exact in
/// double), so the difference to a chapter's result is the float arithmetic of that chapter alone.
#pragma once
#include <functional>
#include <span>
#include <vector>

#include "gpgpu/jacobi/bidomain.hpp"

namespace gpgpu::jacobi {

/// Called with (iterations done, total) while a long computation runs; may be empty.
using ProgressCallback = std::function<void(int, int)>;

/// Runs `iters` weighted Jacobi iterations in double precision from the initial guess x0
/// (nx*ny values) and returns the final iterate (nx*ny values). Uses all OpenMP threads.
std::vector<double> jacobi_reference(const LinearSystem& sys, std::span<const float> x0, int iters, double omega,
                                     const ProgressCallback& progress = {});

/// y = A x in double precision (x and y hold nx*ny values).
std::vector<double> apply_matrix(const Stencil9& A, std::span<const double> x);

/// Tolerance for `iters` single-precision weighted Jacobi iterations against the double reference
/// (both norms of gpgpu::compare_normwise). Each iteration adds the rounding of about 20 float
/// operations, a few units of the unit roundoff u = 2⁻²⁴ ≈ 6e-8 relative to ‖x‖, and the iteration
/// does not amplify earlier errors (its spectral radius is below 1 for a valid ω), so the error grows
/// at most linearly: tolerance = 4u (iters + 16), 2.4e-4 at 1000 iterations. Measured errors follow
/// u·√iters (about 1e-6 at 1000 iterations), two orders of magnitude below; a wrong coefficient,
/// index or missed element is orders of magnitude above.
double jacobi_tolerance(int iters);

/// Relative residual ‖f − A x‖₂ / ‖f‖₂ in double precision.
double relative_residual(const LinearSystem& sys, std::span<const double> x);
/// Same, for a single-precision iterate.
double relative_residual(const LinearSystem& sys, std::span<const float> x);

}  // namespace gpgpu::jacobi
