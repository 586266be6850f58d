/// @file options.hpp
/// @brief The TLM option group: the scenario, the mesh, the steps, the picture.
///
///   --scenario S     cavity (a PEC box), waveguide (WR-28, closed at both ends) or filter (an iris
///                    filter in WR-28, the paper's Fig. 7 workload of 150,000 nodes)
///   --nx --ny --nz   nodes along x, y, z (the WR-28 scenarios take --ny and --nz only: the
///                    cross-section fixes nx = 2 ny and Δl = 3.556 mm / ny)
///   --dl MM          the cell size Δl in millimetres (cavity only)
///   --steps N        time steps (default: the scenario's, long enough to resolve its resonances)
///   --png FILE       the final field on the source's plane as a colour-mapped picture
///
/// With --quick and no size given: a small mesh no dimension of which is a multiple of 64.
#pragma once
#include <string>

#include "gpgpu/cli.hpp"
#include "gpgpu/tlm/structure.hpp"

namespace gpgpu::tlm {

struct Options {
  Scenario scenario = Scenario::cavity;
  Mesh mesh = default_mesh(Scenario::cavity);
  int steps = 0;
  std::string png;  ///< --png FILE, empty without it
};

/// The steps a scenario gets by default: enough for its spectrum to resolve the lines the physics
/// checks look for (cavity: 8000 steps resolve 5 TM lines of the 24 x 18 x 14 box; waveguide: 4000
/// steps resolve 3 TE10p lines; filter: 2000 steps, a workload).
int default_steps(Scenario s);

/// The mesh and steps of --quick: cavity 13 x 11 x 9 (3000 steps, 5 TM lines), waveguide
/// 10 x 5 x 37 (4000 steps), filter 10 x 5 x 47 (500 steps).
Mesh quick_mesh(Scenario s);
int quick_steps(Scenario s);

/// Adds the group to `cli`; after parsing applies the scenario's defaults and --quick, and refuses
/// (UsageError) what cannot run: a WR-28 scenario with --nx or --dl, a mesh the kernels cannot
/// address, a filter too short for its cavities, --png without libpng.
void add_options(Cli& cli, Options& options);

/// The run's "Problem:" line: "SCN TLM, cavity: a closed PEC box, 24 x 18 x 14 cells of 1 mm
/// (24 x 18 x 14 mm), 6048 nodes, 8000 steps of Δt = Δl/2c = 1.668 ps".
std::string describe(const Options& options);

}  // namespace gpgpu::tlm
