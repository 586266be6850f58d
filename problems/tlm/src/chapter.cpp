#include "gpgpu/tlm/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "gpgpu/memory.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/tlm/compare.hpp"
#include "gpgpu/tlm/output.hpp"
#include "gpgpu/tlm/then_now.hpp"
#include "gpgpu/tlm/work.hpp"

namespace gpgpu::tlm {
namespace {

// Host bytes per node the run itself holds: the reference's two arrays of 12 doubles, the initial
// pulses, a variant's pulses read back and the ones kept for --dump or --png (12 floats each).
constexpr double kRunBytesPerNode = 12.0 * (2 * 8 + 3 * 4);

std::string point_text(const Point& p) {
  return std::string("E") + "xyz"[p.polarisation] + " at node (" + std::to_string(p.i) + ", " + std::to_string(p.j) +
         ", " + std::to_string(p.k) + ")";
}

// The start of a line of the variant's own under "Verification:", its name in the verdicts' column.
std::ostream& variant_line(std::ostream& out, const std::string& name) {
  return out << "  " << std::left << std::setw(20) << name << std::right << " ";
}

}  // namespace

void Problem::parsed(Experiment&) {
  // The probes too: the reference's (double), a variant's and the ones kept (float), 6 values per step.
  const double probes = static_cast<double>(options_.steps) * kProbeValues * (8 + 4 + 4);
  require_host_memory(static_cast<double>(options_.mesh.nodes()) * (kRunBytesPerNode + settings_.host_bytes_per_node) + probes,
                      "mesh " + options_.mesh.str() + " for " + std::to_string(options_.steps) + " steps");
}

Limit Problem::limit_of(Experiment& run, const Variant& v) const {
  return run.limit(v.info.backend, stream_mix(v.work, options_.mesh, v.info.threads));
}

void Problem::measure_limits(Experiment& run, std::ostream& out, const std::vector<const Variant*>& variants) {
  for (const Variant* v : variants) {
    const Limit l = limit_of(run, *v);
    run.print_limit(out, v->info.backend, l.mix, l);
  }
}

void Problem::prepare(Experiment& run, std::ostream& out, const std::vector<const Variant*>&) {
  setup_ = {make_structure(options_.scenario, options_.mesh), make_drive(options_.scenario, options_.mesh), options_.steps};
  const Drive& d = setup_.drive;
  initial_.assign(static_cast<std::size_t>(kPorts * options_.mesh.nodes()), 0.0f);
  out << "Source:   Gaussian in " << point_text(d.source) << ", 1 V peak at step 48, width 8 steps, off from step "
      << d.quiet_from() << "; probe: the node voltages and currents at " << point_text(d.probe).substr(6) << "\n";
  for (const Iris& s : setup_.structure.irises)
    out << "Iris:     PEC plate on the z-face before layer " << s.k << ", window x " << s.x0 << ".." << s.x1 - 1
        << " (full height)\n";
  if (!run.options().verify) {
    out << "Reference: skipped (--no-verify): results and physics are NOT checked\n";
    return;
  }
  Progress progress("CPU reference (double precision)");
  Stopwatch clock;
  reference_ = run_reference(setup_.structure, d, initial_, options_.steps,
                             [&](int done, int total) { progress.update(done, total); });
  reference_seconds_ = clock.seconds();
  out << "Reference: CPU double precision, " << fmt("%.3f", reference_seconds_)
      << " s; every variant is compared with it before its numbers are printed\n";
  physics_.push_back(check_energy(reference_.energy, d.quiet_from()));
  const std::vector<double> signal = probe_component(reference_.result.probe, d.probe.polarisation);
  if (options_.scenario == Scenario::cavity) {
    physics_.push_back(check_resonances(setup_.structure, d, signal));
    physics_.push_back(check_spurious_lines(setup_.structure, d, signal));
  }
  if (options_.scenario == Scenario::waveguide) physics_.push_back(check_cutoff(setup_.structure, d, signal));
  for (const PhysicsCheck& c : physics_)
    out << "Physics:  " << c.name << ": " << (c.checked ? (c.pass ? "PASS: " : "FAIL: ") : "") << c.summary << "\n";
}

ResultRow Problem::measure(Experiment& run, std::ostream& out, const Variant& v) {
  std::unique_ptr<Solver> solver = v.make(setup_, run.session_of(v.info));
  const CoreOptions& core = run.options();
  ResultRow row = run.row_for(v.info);
  row.samples = repeat_runs(core.warmup, core.repeat, [&] {
    solver->reset(initial_);
    return solver->run(options_.steps);
  });
  row.launch = solver->launch();
  row.work = work(v.work, options_.mesh, options_.steps);
  row.limit = limit_of(run, v);
  RunResult<float> got{solver->pulses(), solver->probe()};
  if (got.pulses.size() != initial_.size() || got.probe.size() != static_cast<std::size_t>(kProbeValues) * options_.steps)
    throw std::logic_error("variant '" + v.info.name + "' returned pulses or a probe of the wrong size");
  std::string note;
  if (core.verify) {
    const Tolerance t = tolerance(v.storage, options_.steps, options_.mesh);
    const RunComparison c = compare_run(got.pulses, got.probe, reference_, t);
    if (c.within_floor)
      note = "the field after " + std::to_string(options_.steps) + (options_.steps == 1 ? " step (" : " steps (") +
             fmt("%.2g", std::sqrt(reference_.energy.back())) + " V) is within half storage's floor (" +
             fmt("%.2g", t.absolute) + " V): this run cannot tell a right result from a wrong one; a longer run can";
    row.check = c.all();
    // The reference's physics checks (prepare) judge the mesh; a variant's probe must also show no
    // line that is not the box's (half storage: README, "What half storage does to the spectrum").
    if (options_.scenario == Scenario::cavity) {
      const std::vector<double> probe(got.probe.begin(), got.probe.end());
      const PhysicsCheck lines = check_spurious_lines(setup_.structure, setup_.drive,
                                                      probe_component(probe, setup_.drive.probe.polarisation));
      row.extra["spectrum"] = lines.summary;
      if (lines.checked && !lines.pass && row.check.pass) row.check.pass = false, row.check.basis = "spectrum: " + lines.summary;
    }
    row.extra["pulse_error"] = json_number(c.pulses.rel_l2);
    row.extra["probe_error"] = json_number(c.probe.rel_max);
    row.extra["energy_error"] = json_number(c.energy.rel_max);
  } else {
    row.check = not_verified();
  }
  row.extra["storage"] = v.storage == Storage::f16 ? "f16" : "f32";
  if (!core.dump_dir.empty() || !options_.png.empty()) results_.emplace_back(v.info.name, std::move(got));
  if (!row.launch.empty()) variant_line(out, v.info.name) << v.info.source << "; " << row.launch << "\n";
  // Above the verdict the chapter prints next, which states what was compared (RunComparison::all).
  if (!note.empty()) variant_line(out, v.info.name) << "note: " << note << "\n";
  return row;
}

Report Problem::report(Experiment& run, std::ostream& out) {
  const Mesh& m = options_.mesh;
  const Drive& d = setup_.drive;
  run.add_json("comparisons", print_comparisons(out, run.rows(), static_cast<double>(m.nodes())));
  run.add_json("problem", {{"scenario", scenario_name(options_.scenario)},
                           {"nx", m.nx}, {"ny", m.ny}, {"nz", m.nz}, {"dl_m", m.dl}, {"dt_s", m.dt()},
                           {"nodes", m.nodes()}, {"steps", options_.steps},
                           {"source", {d.source.i, d.source.j, d.source.k, d.source.polarisation}},
                           {"probe", {d.probe.i, d.probe.j, d.probe.k, d.probe.polarisation}},
                           {"reference_seconds", reference_seconds_}});
  run.add_json("physics", physics_);
  if (DumpFolder* dump = run.dump()) out << "Dump:     " << write_dump(*dump, setup_, reference_, physics_, results_) << "\n";
  // --png: the source's component on the source's layer, from the reference (or, with
  // --no-verify, the last variant).
  const bool have_reference = !reference_.result.pulses.empty();
  if (!options_.png.empty() && (have_reference || !results_.empty())) {
    const std::vector<double> slice =
        have_reference ? field_slice(m, std::span<const double>(reference_.result.pulses), d.source.polarisation, d.source.k)
                       : field_slice(m, std::span<const float>(results_.back().second.pulses), d.source.polarisation, d.source.k);
    const double scale = write_slice_png(options_.png, slice, m.nx, m.ny);
    out << "PNG:      " << options_.png << " (V" << "xyz"[d.source.polarisation] << " on layer k = " << d.source.k
        << " after " << options_.steps << " steps, " << (have_reference ? "reference" : results_.back().first)
        << "; blue < 0 < red, full colour at |V| = " << fmt("%.3g", scale) << " V)\n";
  }
  Report r{{{"MNodes/s", [](const ResultRow& row) { return fmt("%.1f", row.work.items / row.seconds() / 1e6); }},
            {"energy err", [](const ResultRow& row) {
               return row.extra.contains("energy_error") && row.extra["energy_error"].is_number()
                          ? fmt("%.1e", row.extra["energy_error"].get<double>())
                          : std::string("-");
             }}},
           then_now(run.rows(), setup_.structure)};
  if (std::any_of(physics_.begin(), physics_.end(), [](const PhysicsCheck& c) { return c.checked && !c.pass; }))
    r.failure = "the reference breaks a physics check (see Physics above)";
  return r;
}

}  // namespace gpgpu::tlm
