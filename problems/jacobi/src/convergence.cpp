#include "gpgpu/jacobi/convergence.hpp"

#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

#include "gpgpu/jacobi/reference.hpp"

namespace gpgpu::jacobi {

double squared_update(const float* x_new, const float* x_old, std::int64_t n) {
  double sum = 0.0;
  for (std::int64_t k = 0; k < n; ++k) {
    const float d = x_new[k] - x_old[k];  // in float, as every variant takes it
    sum += static_cast<double>(d) * static_cast<double>(d);  // exact in double
  }
  return sum;
}

//! [bound]
// The variant's update d = x̂_k − x̂_{k−1} against the reference's δ = x_k − x_{k−1}:
//   ‖d‖ − ‖δ‖ ≤ ‖x̂_k − x_k‖ + ‖x̂_{k−1} − x_{k−1}‖ + (rounding of d) + (rounding of the sum).
// Each iterate lies within τ = jacobi_tolerance(k) of the reference, relative to its norm, and
// ‖x_{k−1}‖ ≤ ‖x_k‖ + ‖δ‖; the float difference of each node rounds by at most u = 2⁻²⁴ of itself;
// a double sum of n non-negative squares is within n·2⁻⁵³ of itself (to first order), and its square root within half
// that. Near convergence the first term dominates: the iterates' own float error, not the norm's
// arithmetic, limits how closely two variants' norms can agree.
double update_norm_bound(double reference_norm, double x_norm, int iterations, std::int64_t nodes) {
  constexpr double u = 0x1p-24, u64 = 0x1p-53;
  const double tau = jacobi_tolerance(iterations);
  return tau * (2.0 * x_norm + reference_norm) + (u + static_cast<double>(nodes) * u64) * 2.0 * reference_norm;
}
//! [bound]

void add_convergence_options(Cli& cli, Convergence& check) {
  CLI::Option_group& g = cli.group("Convergence");
  const CLI::Validator tolerance(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < 0.0)
          return "tol must be a finite number >= 0, got '" + text + "'";
        return {};
      },
      "finite >= 0", "Tolerance");
  CLI::Option* every = g.add_option("--check-every", check.check_every,
                                    "the update norm ‖x_k − x_{k−1}‖₂ after every k-th iteration (default: never, "
                                    "a fixed --iters)")
                           ->check(integer_in_range(1));
  g.add_option("--tol", check.tol, "stop after the first checked iteration whose norm is below this (needs --check-every)")
      ->check(tolerance)
      ->needs(every);
  // CLI11 reads "on" and "off" into a bool, and also "yes", "1", "enable"...: only the two are taken.
  g.add_option("--check-overlap", check.overlap,
               "on: the norm of iteration k is reduced while iteration k+1 runs (a stop discards that one); "
               "off: the solver waits for it before the next iteration")
      ->check(CLI::IsMember({"on", "off"}))
      ->option_text(std::string("on|off (default ") + (check.overlap ? "on" : "off") + ")");
}

}  // namespace gpgpu::jacobi
