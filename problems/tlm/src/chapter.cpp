#include "gpgpu/tlm/chapter.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/npy.hpp"
#include "gpgpu/progress.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"
#include "gpgpu/tlm/compare.hpp"
#include "gpgpu/tlm/output.hpp"
#include "gpgpu/tlm/spectrum.hpp"
#include "gpgpu/tlm/then_now.hpp"
#include "gpgpu/tlm/work.hpp"

namespace gpgpu::tlm {
namespace {

// Host bytes per node the run itself holds: the reference's two arrays of 12 doubles, the initial
// pulses, a variant's pulses read back and the ones kept for --dump or --png (12 floats each).
constexpr double kRunBytesPerNode = 12.0 * (2 * 8 + 3 * 4);

const auto fmt = format_cell;

std::string point_text(const Point& p) {
  return std::string("E") + "xyz"[p.polarisation] + " at node (" + std::to_string(p.i) + ", " + std::to_string(p.j) +
         ", " + std::to_string(p.k) + ")";
}

// "cavity: a PEC box of 24 x 18 x 14 cells of 1 mm (24 x 18 x 14 mm), 6048 nodes, 8000 steps of 1.668 ps".
std::string problem_line(const Options& o) {
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

void print_physics(std::ostream& out, const PhysicsCheck& c) {
  out << "Physics:  " << c.name << ": " << (c.checked ? (c.pass ? "PASS: " : "FAIL: ") : "") << c.summary << "\n";
}

// The spectrum of the probe's source component up to λ = 4Δl, for --dump: (frequency Hz, |X|).
std::vector<double> spectrum_table(std::span<const double> signal, const Mesh& m) {
  constexpr int kPoints = 2048;
  const double f_top = kSpeedOfLight / (4.0 * m.dl);
  std::vector<double> f(kPoints);
  for (int k = 0; k < kPoints; ++k) f[static_cast<std::size_t>(k)] = f_top * k / (kPoints - 1);
  const std::vector<double> mag = windowed_spectrum(signal, m.dt(), f);
  std::vector<double> table;
  for (int k = 0; k < kPoints; ++k) table.insert(table.end(), {f[static_cast<std::size_t>(k)], mag[static_cast<std::size_t>(k)]});
  return table;
}

}  // namespace

Chapter::Chapter(ChapterInfo info, ChapterSettings settings)
    : settings_(settings), experiment_(std::move(info), settings_.cli) {}

Chapter::~Chapter() = default;

void Chapter::add(VariantSpec spec) {
  experiment_.use(spec.driver);
  registry_.add(std::move(spec));
}

void Chapter::parse(int argc, const char* const* argv) {
  for (const VariantSpec& s : static_registry<VariantSpec>().all()) add(s);
  add_options(cli(), options_);
  experiment_.parse(argc, argv, registry_.names(), registry_.names_in_all());
  // The probes too: the reference's (double), a variant's and the ones kept (float), 6 values per step.
  const double probes = static_cast<double>(options_.steps) * kProbeValues * (8 + 4 + 4);
  require_host_memory(static_cast<double>(options_.mesh.nodes()) * (kRunBytesPerNode + settings_.host_bytes_per_node) + probes,
                      "mesh " + options_.mesh.str() + " for " + std::to_string(options_.steps) + " steps");
}

std::vector<const VariantSpec*> Chapter::open(std::ostream& out) {
  experiment_.print_header(out, problem_line(options_));
  return experiment_.open_variants(out, registry_, [&](const VariantSpec& v, Session& s) -> std::optional<std::string> {
    if (!v.limitation) return std::nullopt;
    return v.limitation(options_.mesh, s);
  });
}

void Chapter::check_fits(const std::vector<const VariantSpec*>& variants) {
  for (const VariantSpec* v : variants)
    if (v->check_fits) v->check_fits(options_.mesh, options_.steps, session_of(*v));
}

Limit Chapter::limit_of(const VariantSpec& spec) {
  return experiment_.limit(spec.info.backend, stream_mix(spec.work, options_.mesh, spec.threads));
}

void Chapter::measure_limits(std::ostream& out, const std::vector<const VariantSpec*>& variants) {
  for (const VariantSpec* v : variants) {
    const Limit l = limit_of(*v);
    experiment_.print_limit(out, v->info.backend, l.mix, l);
  }
}

void Chapter::prepare(std::ostream& out) {
  problem_ = {make_structure(options_.scenario, options_.mesh), make_drive(options_.scenario, options_.mesh), options_.steps};
  const Drive& d = problem_.drive;
  initial_.assign(static_cast<std::size_t>(kPorts * options_.mesh.nodes()), 0.0f);
  out << "Source:   Gaussian in " << point_text(d.source) << ", 1 V peak at step 48, width 8 steps, off from step "
      << d.quiet_from() << "; probe: the node voltages and currents at " << point_text(d.probe).substr(6) << "\n";
  for (const Iris& s : problem_.structure.irises)
    out << "Iris:     PEC plate on the z-face before layer " << s.k << ", window x " << s.x0 << ".." << s.x1 - 1
        << " (full height)\n";
  if (!experiment_.options().verify) {
    out << "Reference: skipped (--no-verify): results and physics are NOT checked\n";
    return;
  }
  Progress progress("CPU reference (double precision)");
  Stopwatch clock;
  reference_ = run_reference(problem_.structure, d, initial_, options_.steps,
                             [&](int done, int total) { progress.update(done, total); });
  reference_seconds_ = clock.seconds();
  out << "Reference: CPU double precision, " << fmt("%.3f", reference_seconds_)
      << " s; every variant is compared with it before its numbers are printed\n";
  physics_.push_back(check_energy(reference_.energy, d.quiet_from()));
  const std::vector<double> signal = probe_component(reference_.result.probe, d.probe.polarisation);
  if (options_.scenario == Scenario::cavity) physics_.push_back(check_resonances(problem_.structure, d, signal));
  if (options_.scenario == Scenario::waveguide) physics_.push_back(check_cutoff(problem_.structure, d, signal));
  for (const PhysicsCheck& c : physics_) print_physics(out, c);
}

const ResultRow& Chapter::run_variant(std::ostream& out, const VariantSpec& spec) {
  Session& session = session_of(spec);
  std::unique_ptr<Solver> solver = spec.make(problem_, session);
  const CoreOptions& core = experiment_.options();
  ResultRow row = experiment_.row_for(spec.info, spec.threads);
  row.timer = spec.timer;
  row.samples = repeat_runs(core.warmup, core.repeat, [&] {
    solver->reset(initial_);
    return solver->run(options_.steps);
  });
  row.launch = solver->launch();
  row.work = work(spec.work, options_.mesh, options_.steps);
  row.limit = limit_of(spec);
  RunResult<float> got{solver->pulses(), solver->probe()};
  if (got.pulses.size() != initial_.size() || got.probe.size() != static_cast<std::size_t>(kProbeValues) * options_.steps)
    throw std::logic_error("variant '" + spec.info.name + "' returned pulses or a probe of the wrong size");
  std::string note;
  if (core.verify) {
    const Tolerance t = tolerance(spec.storage, options_.steps, options_.mesh);
    const RunComparison c = compare_run(got.pulses, got.probe, reference_, t);
    if (below_floor(reference_, t))
      note = "the field after " + std::to_string(options_.steps) + (options_.steps == 1 ? " step (" : " steps (") +
             fmt("%.2g", std::sqrt(reference_.energy.back())) +
             " V) is within half storage's floor (" + fmt("%.2g", t.absolute) +
             " V): this run cannot tell a right result from a wrong one; a longer run can";
    row.check = c.all();
    row.extra["pulse_error"] = json_number(c.pulses.rel_l2);
    row.extra["probe_error"] = json_number(c.probe.rel_max);
    row.extra["energy_error"] = json_number(c.energy.rel_max);
  } else {
    row.check = not_verified();
  }
  row.extra["storage"] = spec.storage == Storage::f16 ? "f16" : "f32";
  if (!core.dump_dir.empty() || !options_.png.empty()) results_.emplace_back(spec.info.name, std::move(got));
  if (!row.launch.empty())
    out << "  " << std::left << std::setw(20) << spec.info.name << std::right << " " << spec.info.source << "; "
        << row.launch << "\n";
  const ResultRow& recorded = experiment_.record(out, std::move(row));
  if (!note.empty())
    out << "  " << std::left << std::setw(20) << spec.info.name << std::right << " note: " << note << "\n";
  return recorded;
}

int Chapter::finish(std::ostream& out) {
  const Mesh& m = options_.mesh;
  const Drive& d = problem_.drive;
  const std::vector<ResultRow>& rows = experiment_.rows();
  const std::vector<Comparison> pairs = comparisons(rows, static_cast<double>(m.nodes()));
  if (!pairs.empty()) {
    out << "\nComparisons (node rate of the first over the second, same run):\n";
    std::vector<std::vector<std::string>> t{{"comparison", "first", "second", "ratio", "the paper"}};
    for (const Comparison& c : pairs) t.push_back({c.what, c.first, c.second, fmt("%.2f", c.ratio), c.paper});
    print_text_table(out, t, 3);
  }
  nlohmann::json compared = nlohmann::json::array();
  for (const Comparison& c : pairs)
    compared.push_back({{"what", c.what}, {"first", c.first}, {"second", c.second}, {"ratio", c.ratio}, {"paper", c.paper}});
  experiment_.add_json("comparisons", compared);
  experiment_.add_json("problem", {{"scenario", scenario_name(options_.scenario)},
                                   {"nx", m.nx}, {"ny", m.ny}, {"nz", m.nz}, {"dl_m", m.dl}, {"dt_s", m.dt()},
                                   {"nodes", m.nodes()}, {"steps", options_.steps},
                                   {"source", {d.source.i, d.source.j, d.source.k, d.source.polarisation}},
                                   {"probe", {d.probe.i, d.probe.j, d.probe.k, d.probe.polarisation}},
                                   {"reference_seconds", reference_seconds_}});
  experiment_.add_json("physics", physics_);

  // The field for --dump and --png: the source's component on the source's layer, from the
  // reference (or, with --no-verify, the last variant).
  const bool have_reference = !reference_.result.pulses.empty();
  const std::vector<double> slice =
      have_reference ? field_slice(m, std::span<const double>(reference_.result.pulses), d.source.polarisation, d.source.k)
      : results_.empty() ? std::vector<double>{}
                         : field_slice(m, std::span<const float>(results_.back().second.pulses), d.source.polarisation, d.source.k);
  const CoreOptions& core = experiment_.options();
  if (!core.dump_dir.empty()) {
    const std::filesystem::path dir = core.dump_dir;
    const auto steps = static_cast<std::size_t>(options_.steps);
    const std::vector<std::size_t> plane{static_cast<std::size_t>(m.ny), static_cast<std::size_t>(m.nx)};
    if (have_reference) {
      write_npy(dir / "reference_probe.npy", reference_.result.probe, {steps, kProbeValues});
      write_npy(dir / "reference_energy.npy", reference_.energy, {steps + 1});
      write_npy(dir / "reference_field.npy", slice, plane);
      const std::vector<double> spectrum = spectrum_table(probe_component(reference_.result.probe, d.probe.polarisation), m);
      write_npy(dir / "spectrum.npy", spectrum, {spectrum.size() / 2, 2});
      std::vector<double> lines;
      for (const PhysicsCheck& c : physics_)
        for (const Resonance& r : c.lines) lines.insert(lines.end(), {r.f_analytic, r.f_discrete, r.f_measured});
      write_npy(dir / "lines.npy", lines, {lines.size() / 3, 3});
    }
    for (const auto& [name, r] : results_) {
      write_npy(dir / ("probe_" + name + ".npy"), r.probe, {steps, kProbeValues});
      write_npy(dir / ("field_" + name + ".npy"),
                field_slice(m, std::span<const float>(r.pulses), d.source.polarisation, d.source.k), plane);
    }
    out << "Dump:     " << dir.string() << ": probes (steps x 6: Vx Vy Vz Z0Ix Z0Iy Z0Iz), the field V"
        << "xyz"[d.source.polarisation] << " on layer k = " << d.source.k
        << " (ny x nx), the reference's energy per step, its spectrum (Hz, |X|) and lines (analytic, mesh, measured Hz)\n";
  }
  if (!options_.png.empty() && !slice.empty()) {
    const double scale = write_slice_png(options_.png, slice, m.nx, m.ny);
    out << "PNG:      " << options_.png << " (V" << "xyz"[d.source.polarisation] << " on layer k = " << d.source.k
        << " after " << options_.steps << " steps, " << (have_reference ? "reference" : results_.back().first)
        << "; blue < 0 < red, full colour at |V| = " << fmt("%.3g", scale) << " V)\n";
  }
  const std::vector<Column> columns{
      {"MNodes/s", [](const ResultRow& r) { return fmt("%.1f", r.work.items / r.seconds() / 1e6); }},
      {"energy err", [](const ResultRow& r) {
         return r.extra.contains("energy_error") && r.extra["energy_error"].is_number()
                    ? fmt("%.1e", r.extra["energy_error"].get<double>())
                    : std::string("-");
       }}};
  const int code = experiment_.finish(out, columns, then_now(rows, problem_.structure));
  const bool physics_pass = std::all_of(physics_.begin(), physics_.end(), [](const PhysicsCheck& c) { return !c.checked || c.pass; });
  if (!physics_pass) {
    out << "FAIL: the reference breaks a physics check (see Physics above)\n";
    return kExitVerificationFailed;
  }
  return code;
}

int Chapter::run(int argc, char** argv) {
  parse(argc, argv);
  std::ostream& out = std::cout;
  const std::vector<const VariantSpec*> variants = open(out);
  check_fits(variants);
  measure_limits(out, variants);
  prepare(out);
  out << "Verification:\n";
  for (const VariantSpec* v : variants) run_variant(out, *v);
  return finish(out);
}

}  // namespace gpgpu::tlm
