#include "gpgpu/matrix/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <ostream>
#include <sstream>

#include "gpgpu/errors.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/matrix/paper003.hpp"
#include "gpgpu/matrix/report.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::matrix {
namespace {

const auto fmt = format_cell;

// Sizes beyond the paper's: the H100's L2 is 50 MB, so at 8192² (256 MiB per float matrix) and
// 16384² (1 GiB) every operand streams from DRAM.
constexpr int kWideSizes[] = {8192, 16384};
constexpr std::int64_t kQuickLargest = 256;

struct Point {
  std::int64_t n = 0;
  const VariantSpec* spec = nullptr;
  double ms = 0;              // per call, median of the timed runs (the kernel's own clock)
  double ms_with_copies = 0;  // upload + one call + download, median, host clock
  double gbs = 0;             // formula (1) with the kernel time
  double best_gbs = 0;        // the same with the fastest timed run: what may raise the limit
  double gbs_with_copies = 0;
  Limit limit;
  Verification check;
  double paper_ms = std::nan("");
  std::string paper_table;
};

// The paper's time for the variant's paper name and operation at n (the later table where two
// print the same name: Tab. 10's CUDA transpose ran on the card Tab. 10's OpenCL ran on).
void find_paper_time(Point& p) {
  const int index = p.n <= 4096 ? paper003::size_index(static_cast<int>(p.n)) : -1;
  if (index < 0 || p.spec->info.paper_name.empty()) return;
  for (auto it = paper003::kAddTranspose.rbegin(); it != paper003::kAddTranspose.rend(); ++it)
    if (it->operation == op_name(p.spec->op) && it->implementation == p.spec->info.paper_name) {
      p.paper_ms = it->ms[static_cast<std::size_t>(index)];
      p.paper_table = std::string(it->table) + " (" + std::string(it->element_type) + ")";
      return;
    }
}

std::vector<PortRatio> port_ratios(const std::vector<Point>& points) {
  std::vector<PortRatio> ratios;
  for (const Point& p : points) {
    if (p.spec->ports.empty()) continue;
    for (const Point& o : points) {
      if (o.n != p.n || o.spec->info.name != p.spec->ports) continue;
      PortRatio r;
      r.n = p.n;
      r.variant = p.spec->info.name;
      r.original = o.spec->info.name;
      r.kernel_ratio = p.ms / o.ms;
      r.copies_ratio = p.ms_with_copies / o.ms_with_copies;
      r.paper_ratio = paper_port_ratio(p.spec->op, p.spec->info.paper_name, o.spec->info.paper_name, p.n, &r.paper_table);
      ratios.push_back(std::move(r));
    }
  }
  return ratios;
}

// The limit rule (limit_rule.hpp) over every point so far.
void settle(std::vector<Point>& points) {
  std::vector<Judged> judged;
  for (Point& p : points)
    judged.push_back({std::string(backend_name(p.spec->info.backend)), p.spec->info.name, p.best_gbs,
                      !p.check.checked || p.check.pass, &p.limit});
  settle_limits(judged);
}

void print_points(std::ostream& out, const std::vector<Point>& points) {
  std::vector<std::vector<std::string>> t{{"n", "variant", "ms kernel", "ms w/ copies", "GB/s", "GB/s w/ copies",
                                           "% of limit", "check", "then ms", "then"}};
  for (const Point& p : points)
    t.push_back({std::to_string(p.n), p.spec->info.name, fmt("%.4f", p.ms), fmt("%.4f", p.ms_with_copies),
                 fmt("%.1f", p.gbs), fmt("%.2f", p.gbs_with_copies), fmt("%.1f%%", 100.0 * p.gbs / p.limit.gbs),
                 p.check.verdict(), fmt("%.4f", p.paper_ms), p.paper_table.empty() ? "-" : p.paper_table});
  print_text_table(out, t, 2);
  out << "  ms kernel: per call, median of the timed runs on the kernel's own clock; ms w/ copies: the operands up,\n"
         "  one call, the result down, host clock (the paper's kind of time). GB/s: paper 003's formula (1),\n"
         "  (bytes read + bytes written) / time. % of limit: kernel GB/s over the limit measured at the same n for\n"
         "  the same read:write mix (the stream kernel's best run, or a verified point's where it was faster).\n"
         "  then: the paper's time at n for the variant's namesake (its element type).\n";
  std::vector<const Limit*> limits;
  for (const Point& p : points) limits.push_back(&p.limit);
  print_raised_limits(out, limits);
}

void write_csv(const std::string& path, const std::vector<Point>& points, const std::vector<PortRatio>& ratios,
               ElementType type, int calls) {
  std::ofstream f(path);
  if (!f) throw UsageError("cannot write '" + path + "'");
  f << "n,type,calls,variant,backend,op,ms_kernel,ms_with_copies,gbs_kernel,gbs_with_copies,limit_gbs,limit_share,"
       "check,paper_ms,paper_table,ports,port_over_original_kernel,port_over_original_with_copies,paper_ratio\n";
  for (const Point& p : points) {
    const PortRatio* r = nullptr;
    for (const PortRatio& q : ratios)
      if (q.n == p.n && q.variant == p.spec->info.name) r = &q;
    f << p.n << ',' << type_name(type) << ',' << calls << ',' << p.spec->info.name << ','
      << backend_name(p.spec->info.backend) << ',' << op_name(p.spec->op) << ',' << p.ms << ',' << p.ms_with_copies << ','
      << p.gbs << ',' << p.gbs_with_copies << ',' << p.limit.gbs << ',' << p.gbs / p.limit.gbs << ','
      << p.check.verdict() << ',' << p.paper_ms << ",\"" << p.paper_table << "\"," << p.spec->ports << ','
      << (r ? r->kernel_ratio : std::nan("")) << ',' << (r ? r->copies_ratio : std::nan("")) << ','
      << (r ? r->paper_ratio : std::nan("")) << '\n';
  }
  if (!f) throw UsageError("writing '" + path + "' failed");
}

// Writes --csv and --json with the points so far: after every n, so that a sweep stopped part way
// (a time limit on a batch) still leaves what it measured; "complete" says whether it ran to the end.
void save_sweep(Chapter& chapter, const std::vector<Point>& points, const nlohmann::json& startup, bool complete) {
  Experiment& experiment = chapter.experiment();
  const CoreOptions& core = experiment.options();
  const Options& opt = chapter.options();
  const std::vector<PortRatio> ratios = port_ratios(points);
  if (!core.csv_path.empty()) write_csv(core.csv_path, points, ratios, opt.type, opt.calls);
  if (core.json_path.empty()) return;
  nlohmann::json j;
  j["schema"] = "gpgpu-then-and-now/matrix-sweep";
  j["schema_version"] = kResultSchemaVersion;
  j["chapter"] = {{"id", experiment.info().id}, {"program", experiment.info().program}, {"mode", chapter.sweep_mode()}};
  j["command_line"] = chapter.cli().command_line();
  j["complete"] = complete;
  j["problem"] = {{"type", type_name(opt.type)}, {"calls", opt.calls}, {"repeat", core.repeat}};
  for (Backend b : {Backend::cpu, Backend::cuda, Backend::opencl})
    if (Session* s = experiment.session(b)) j["backends"][std::string(backend_name(b))] = s->json();
  j["points"] = nlohmann::json::array();
  for (const Point& p : points)
    j["points"].push_back({{"n", p.n},
                           {"variant", p.spec->info.name},
                           {"backend", backend_name(p.spec->info.backend)},
                           {"op", op_name(p.spec->op)},
                           {"ms_kernel", p.ms},
                           {"ms_with_copies", p.ms_with_copies},
                           {"gbs_kernel", p.gbs},
                           {"gbs_with_copies", p.gbs_with_copies},
                           {"limit", p.limit},
                           {"limit_share", json_number(p.gbs / p.limit.gbs)},
                           {"check", p.check.verdict()},
                           {"paper_ms", json_number(p.paper_ms)},
                           {"paper_table", p.paper_table}});
  j["port_ratios"] = ratios;
  j["startup"] = startup;
  std::ofstream f(core.json_path);
  if (!f || !(f << j.dump(2) << '\n')) throw UsageError("cannot write '" + core.json_path + "'");
}

}  // namespace

std::vector<Shape> sweep_shapes(const std::string& mode, bool quick) {
  std::vector<Shape> shapes;
  for (int n : paper003::kSizes) shapes.push_back({n, n});
  if (mode == "wide")
    for (int n : kWideSizes) shapes.push_back({n, n});
  if (quick) std::erase_if(shapes, [](const Shape& s) { return s.rows > kQuickLargest; });
  return shapes;
}

int run_sweep(Chapter& chapter, std::ostream& out, const std::vector<const VariantSpec*>& variants) {
  Experiment& experiment = chapter.experiment();
  const CoreOptions& core = experiment.options();
  const Options& opt = chapter.options();
  const std::vector<Shape> shapes = sweep_shapes(chapter.sweep_mode(), core.quick);
  out << "Sweep (paper 003, Tabs. 8-10): n x n for n = " << shapes.front().rows << " ... " << shapes.back().rows << ", "
      << type_name(opt.type) << ", " << opt.calls << " call(s) per timed run, median of " << core.repeat
      << "; every point verified before it is timed\n";
  // The start-up steps are known once the backends are open: printed at the end, saved with every n.
  std::ostringstream startup_text;
  const nlohmann::json startup = print_startup(startup_text, experiment);
  std::vector<Point> points;
  const auto save = [&](bool complete) { save_sweep(chapter, points, startup, complete); };
  for (const Shape& shape : shapes) {
    chapter.set_shape(shape);
    (void)chapter.make_inputs(variants);
    out << "  n = " << shape.rows << ":" << std::flush;
    for (const VariantSpec* v : variants) {
      if (v->limitation) {
        if (const auto why = v->limitation(shape, opt.type, chapter.session_of(*v))) {
          out << " " << v->info.name << " (skipped: " << *why << ")";
          continue;
        }
      }
      const Measurement m = chapter.measure(*v);
      Point p;
      p.n = shape.rows;
      p.spec = v;
      const Work w = work(v->op, shape, opt.type, opt.calls);
      p.ms = 1e3 * median(m.samples) / opt.calls;
      p.ms_with_copies = 1e3 * median(m.with_copies_s);
      p.gbs = rates(w, median(m.samples)).gbs_min;
      p.best_gbs = rates(w, *std::min_element(m.samples.begin(), m.samples.end())).gbs_min;
      p.gbs_with_copies = w.bytes_min / opt.calls / (p.ms_with_copies * 1e-3) / 1e9;
      p.limit = chapter.limit_of(*v);
      p.check = m.check;
      find_paper_time(p);
      out << " " << v->info.name << (p.check.checked && !p.check.pass ? " FAIL" : "") << std::flush;
      points.push_back(std::move(p));
    }
    out << "\n";
    settle(points);
    save(false);
  }

  out << "\nSweep results:\n";
  print_points(out, points);
  print_port_ratios(out, port_ratios(points));
  out << startup_text.str();
  if (opt.type != ElementType::f32 && opt.type != ElementType::i32)
    out << "  The paper's add rows are int and its transpose rows float (4 B each); this sweep is "
        << type_name(opt.type) << ".\n";
  save(true);
  bool all_pass = true;
  for (const Point& p : points) all_pass = all_pass && (!p.check.checked || p.check.pass);
  out << "\n" << (all_pass ? "PASS" : "FAIL") << ": " << points.size() << " sweep points "
      << (core.verify ? "verified against the CPU reference" : "NOT verified (--no-verify)") << "\n";
  return all_pass ? kExitSuccess : kExitVerificationFailed;
}

}  // namespace gpgpu::matrix
