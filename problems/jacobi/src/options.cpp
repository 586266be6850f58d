#include "gpgpu/jacobi/options.hpp"

#include <cmath>

#include <CLI/CLI.hpp>

#include "gpgpu/jacobi/spectral.hpp"

namespace gpgpu::jacobi {

void add_options(Cli& cli, Options& o, QuickSizes quick) {
  o.omega = kDefaultOmega;
  CLI::Option_group& g = cli.group("Jacobi problem");
  g.add_option("--nx", o.grid.nx, "grid width: unknowns per row")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--ny", o.grid.ny, "grid height: number of rows")->check(integer_in_range(1))->capture_default_str();
  g.add_option("--iters", o.iters, "weighted Jacobi iterations")->check(integer_in_range(1))->capture_default_str();
  // ω must be a finite number below 2 (above, weighted Jacobi cannot converge) and at least kMinOmega
  // (below, single precision cannot carry it).
  const CLI::Validator omega_range(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value <= 0.0 || value >= 2.0)
          return "omega must be a number strictly between 0 and 2, got '" + text + "'";
        if (value < kMinOmega)
          return "omega must be at least 1e-30, got '" + text +
                 "': a float holds a smaller weight times the iterate near or below its smallest normal number, "
                 "where the single-precision variants lose the digits their error bound counts on";
        return {};
      },
      "in [1e-30,2)", "OmegaRange");
  g.add_option("--omega", o.omega, "Jacobi weight ω, in [1e-30, 2); converges for ω < 2/λmax(D⁻¹A)")
      ->check(omega_range)
      ->capture_default_str();
  cli.on_parsed([&o, quick](const Cli& c) {
    if (c.options().quick) {
      if (!c.given("--nx")) o.grid.nx = quick.grid.nx;
      if (!c.given("--ny")) o.grid.ny = quick.grid.ny;
      if (!c.given("--iters")) o.iters = quick.iters;
    }
    validate_grid(o.grid);
  });
}

}  // namespace gpgpu::jacobi
