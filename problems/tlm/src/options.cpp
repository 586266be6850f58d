#include "gpgpu/tlm/options.hpp"

#include <cmath>
#include <memory>

#include <CLI/CLI.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/png.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu::tlm {

int default_steps(Scenario s) {
  switch (s) {
    case Scenario::cavity: return 8000;
    case Scenario::waveguide: return 4000;
    case Scenario::filter: return 2000;
  }
  return 1000;
}

Mesh quick_mesh(Scenario s) {
  switch (s) {
    case Scenario::cavity: return {13, 11, 9, 1e-3};
    case Scenario::waveguide: return {10, 5, 37, kWr28B / 5};
    case Scenario::filter: return {10, 5, 47, kWr28B / 5};
  }
  return {};
}

int quick_steps(Scenario s) {
  switch (s) {
    case Scenario::cavity: return 3000;
    case Scenario::waveguide: return 4000;
    case Scenario::filter: return 500;
  }
  return 100;
}

namespace {

// A positive, finite number of millimetres.
const CLI::Validator kPositiveLength(
    [](std::string& text) -> std::string {
      double value = 0;
      if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value <= 0.0)
        return "--dl must be a positive number of millimetres, got '" + text + "'";
      return {};
    },
    "MM > 0", "PositiveLength");

}  // namespace

void add_options(Cli& cli, Options& o) {
  auto scenario = std::make_shared<std::string>("cavity");
  auto dl_mm = std::make_shared<double>(1.0);
  CLI::Option_group& g = cli.group("TLM problem");
  g.add_option("--scenario", *scenario, "cavity (a PEC box), waveguide (WR-28) or filter (an iris filter in WR-28)")
      ->check(CLI::IsMember({"cavity", "waveguide", "filter"}))
      ->capture_default_str();
  g.add_option("--nx", o.mesh.nx, "nodes along x (cavity only)")->check(integer_in_range(1));
  g.add_option("--ny", o.mesh.ny, "nodes along y (WR-28 scenarios: across the narrow wall, nx = 2 ny)")
      ->check(integer_in_range(1));
  g.add_option("--nz", o.mesh.nz, "nodes along z")->check(integer_in_range(1));
  g.add_option("--dl", *dl_mm, "cell size Δl in millimetres (cavity only; default 1)")->check(kPositiveLength);
  g.add_option("--steps", o.steps, "time steps (default: the scenario's)")->check(integer_in_range(1));
  g.add_option("--png", o.png, "write the final field on the source's layer as a colour-mapped PNG")
      ->check(writable_path());
  cli.on_parsed([&o, scenario, dl_mm](const Cli& c) {
    o.scenario = parse_scenario(*scenario);
    const Mesh given = o.mesh;
    o.mesh = c.options().quick ? quick_mesh(o.scenario) : default_mesh(o.scenario);
    if (!c.given("--steps")) o.steps = c.options().quick ? quick_steps(o.scenario) : default_steps(o.scenario);
    if (o.scenario == Scenario::cavity) {
      if (c.given("--nx")) o.mesh.nx = given.nx;
      if (c.given("--ny")) o.mesh.ny = given.ny;
      if (c.given("--dl")) o.mesh.dl = *dl_mm * 1e-3;
    } else {
      if (c.given("--nx") || c.given("--dl"))
        throw UsageError("--scenario " + *scenario + " is WR-28 (7.112 x 3.556 mm): its cross-section fixes nx = 2 ny "
                         "and Δl = 3.556 mm / ny; give --ny (and --nz) only");
      if (c.given("--ny")) o.mesh.ny = given.ny;
      o.mesh.nx = 2 * o.mesh.ny;
      o.mesh.dl = kWr28B / o.mesh.ny;
    }
    if (c.given("--nz")) o.mesh.nz = given.nz;
    (void)make_structure(o.scenario, o.mesh);  // validates the mesh and the filter's length (exit 2)
    if (!o.png.empty() && !png_supported())
      throw UsageError("--png: this build has no libpng (install libpng-dev and reconfigure)");
  });
}

std::string describe(const Options& o) {
  const auto fmt = format_cell;
  const Mesh& m = o.mesh;
  const double mm = 1e3 * m.dl;
  std::string what = o.scenario == Scenario::cavity    ? "a closed PEC box"
                     : o.scenario == Scenario::waveguide ? "a WR-28 waveguide closed at both ends"
                                                         : "an iris filter in WR-28 (this chapter's design)";
  return "SCN TLM, " + std::string(scenario_name(o.scenario)) + ": " + what + ", " + m.str() + " cells of " +
         fmt("%.5g", mm) + " mm (" + fmt("%.4g", m.nx * mm) + " x " + fmt("%.4g", m.ny * mm) + " x " +
         fmt("%.4g", m.nz * mm) + " mm), " + std::to_string(m.nodes()) + " nodes, " + std::to_string(o.steps) +
         " steps of Δt = Δl/2c = " + fmt("%.4g", m.dt() * 1e12) + " ps";
}

}  // namespace gpgpu::tlm
