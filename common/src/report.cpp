#include "gpgpu/report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>

#include <nlohmann/json.hpp>

#include "gpgpu/errors.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu {
std::string format_cell(const char* format, double value) {
  if (!std::isfinite(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

namespace {
const auto fmt = format_cell;  // short name for the many cells below
}  // namespace

void print_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, std::size_t left_aligned) {
  if (rows.empty()) return;
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < rows[r].size() && c < width.size(); ++c) {
      const std::string& cell = rows[r][c];
      // Column widths count bytes; cells are ASCII apart from a few symbols in headers.
      const std::string pad(width[c] - cell.size(), ' ');
      line += c < left_aligned ? cell + pad : pad + cell;
      if (c + 1 < rows[r].size()) line += "  ";
    }
    out << "  " << line << '\n';
    if (r == 0) out << "  " << std::string(line.size(), '-') << '\n';
  }
}

double ResultRow::seconds() const { return median(samples); }
double ResultRow::ms_per_iter() const { return 1e3 * seconds() / iters; }
Rates ResultRow::rates() const { return gpgpu::rates(work, static_cast<double>(grid.nodes()), iters, seconds()); }
double ResultRow::limit_share() const { return limit.gbs > 0 ? rates().gbs_min / limit.gbs : NAN; }

void print_result_table(std::ostream& out, const std::vector<ResultRow>& rows) {
  if (rows.empty()) return;
  std::vector<std::vector<std::string>> t{{"variant", "device", "total s", "ms/iter", "GFLOP/s", "GB/s all",
                                           "GB/s min", "% of limit", "rel. error", "residual", "check"}};
  for (const ResultRow& r : rows) {
    const Rates q = r.rates();
    t.push_back({r.variant, r.device, fmt("%.3f", r.seconds()), fmt("%.4f", r.ms_per_iter()), fmt("%.2f", q.gflops),
                 fmt("%.2f", q.gbs_all), fmt("%.2f", q.gbs_min), fmt("%.1f%%", 100.0 * r.limit_share()),
                 r.check.checked ? fmt("%.1e", r.check.rel_l2) : "-", fmt("%.3e", r.residual), r.check.verdict()});
  }
  print_text_table(out, t, 2);
  out << "  Counts per node and iteration (common/include/gpgpu/work_counts.hpp):\n";
  std::vector<std::string> seen;
  for (const ResultRow& r : rows) {
    if (std::find(seen.begin(), seen.end(), std::string(r.work.kernel)) != seen.end()) continue;
    seen.emplace_back(r.work.kernel);
    out << "    " << r.work.kernel << ": " << r.work.flops << " FLOP, " << r.work.bytes_all << " B all accesses, "
        << r.work.bytes_min << " B minimum traffic (" << r.work.what << ")\n";
  }
  out << "  % of limit = GB/s min / bandwidth limit measured in this run:";
  std::vector<std::string> limits;
  for (const ResultRow& r : rows) {
    const std::string text = r.limit.name + " " + fmt("%.1f", r.limit.gbs) + " GB/s";
    if (std::find(limits.begin(), limits.end(), text) == limits.end()) limits.push_back(text);
  }
  for (std::size_t i = 0; i < limits.size(); ++i) out << (i ? "; " : " ") << limits[i];
  out << "\n  rel. error = ‖x − x_ref‖₂/‖x_ref‖₂ against the CPU double-precision reference after the same iterations;"
         " residual = ‖f − Ax‖₂/‖f‖₂\n";
}

ThenNowRow now_row(const ResultRow& r) {
  const Rates q = r.rates();
  const double nodes_per_second = static_cast<double>(r.grid.nodes()) * r.iters / r.seconds();
  return {"now", r.device, r.variant, 1024.0 * 1024.0 * 1000.0 / nodes_per_second, q.gflops, q.gbs_all, q.gbs_min,
          r.limit_share()};
}

void print_then_now(std::ostream& out, const std::vector<ThenNowRow>& rows) {
  if (rows.empty()) return;
  std::vector<std::vector<std::string>> t{
      {"when", "machine", "implementation", "s/1000 it. 1024^2", "GFLOP/s", "GB/s all", "GB/s min", "% of BW"}};
  for (const ThenNowRow& r : rows)
    t.push_back({r.when, r.machine, r.implementation, fmt("%.3f", r.seconds_1024), fmt("%.2f", r.gflops),
                 fmt("%.2f", r.gbs_all), fmt("%.2f", r.gbs_min), fmt("%.1f%%", 100.0 * r.share)});
  print_text_table(out, t, 3);
  out << "  then: figures as published (GB = 2^30 B; FLOP count per node not stated); % of the theoretical peak.\n"
         "  now:  GB = 1e9 B, 20 FLOP per node; % of the bandwidth measured in this run; time scaled to 1024², 1000\n"
         "        iterations from the measured node rate when the run used another size.\n";
}

void write_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows) {
  std::ofstream out(path);
  if (!out) throw UsageError("cannot write '" + path.string() + "'");
  out << "variant,device,timer,nx,ny,iters,repeats,seconds_median,seconds_min,ms_per_iter,gflops,gbs_all,gbs_min,"
         "limit_name,limit_gbs,limit_share,rel_error_l2,rel_error_max,residual,check\n";
  for (const ResultRow& r : rows) {
    const Rates q = r.rates();
    out << r.variant << ",\"" << r.device << "\"," << r.timer << ',' << r.grid.nx << ',' << r.grid.ny << ','
        << r.iters << ',' << r.samples.size() << ',' << r.seconds() << ',' << minimum(r.samples) << ','
        << r.ms_per_iter() << ',' << q.gflops << ',' << q.gbs_all << ',' << q.gbs_min << ",\"" << r.limit.name
        << "\"," << r.limit.gbs << ',' << r.limit_share() << ',' << r.check.rel_l2 << ',' << r.check.rel_max << ','
        << r.residual << ',' << r.check.verdict() << '\n';
  }
  if (!out) throw UsageError("writing '" + path.string() + "' failed");
}

namespace {
// JSON has no NaN: absent values become null.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

void to_json(nlohmann::json& j, const Limit& l) { j = {{"name", l.name}, {"gbs", number(l.gbs)}}; }

void to_json(nlohmann::json& j, const ResultRow& r) {
  const Rates q = r.rates();
  j = {{"variant", r.variant},
       {"description", r.description},
       {"device", r.device},
       {"timer", r.timer},
       {"nx", r.grid.nx},
       {"ny", r.grid.ny},
       {"iters", r.iters},
       {"samples_s", r.samples},
       {"seconds_median", number(r.seconds())},
       {"ms_per_iter", number(r.ms_per_iter())},
       {"kernel", std::string(r.work.kernel)},
       {"gflops", number(q.gflops)},
       {"gbs_all", number(q.gbs_all)},
       {"gbs_min", number(q.gbs_min)},
       {"limit", r.limit},
       {"limit_share", number(r.limit_share())},
       {"rel_error_l2", number(r.check.rel_l2)},
       {"rel_error_max", number(r.check.rel_max)},
       {"tolerance", number(r.check.tolerance)},
       {"residual", number(r.residual)},
       {"check", r.check.verdict()}};
}

void to_json(nlohmann::json& j, const ThenNowRow& r) {
  j = {{"when", r.when},         {"machine", r.machine},          {"implementation", r.implementation},
       {"seconds_1024", number(r.seconds_1024)}, {"gflops", number(r.gflops)}, {"gbs_all", number(r.gbs_all)},
       {"gbs_min", number(r.gbs_min)}, {"share", number(r.share)}};
}

}  // namespace gpgpu
