#include "gpgpu/result.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>

#include "gpgpu/errors.hpp"
#include "gpgpu/limit_rule.hpp"
#include "gpgpu/output_file.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu {
namespace {
// Items per second with an SI prefix: "1.23 G", "456 M".
std::string si_rate(double v) {
  if (!std::isfinite(v)) return "-";
  const char* prefix[] = {"", "k", "M", "G", "T"};
  int p = 0;
  while (v >= 1000.0 && p < 4) {
    v /= 1000.0;
    ++p;
  }
  return fmt(v < 10 ? "%.2f " : v < 100 ? "%.1f " : "%.0f ", v) + prefix[p];
}
}  // namespace

double ResultRow::seconds() const { return median(samples); }
double ResultRow::min_seconds() const { return minimum(samples); }
double ResultRow::max_seconds() const { return maximum(samples); }
double ResultRow::ms_per_step() const { return 1e3 * seconds() / work.steps; }
Rates ResultRow::rates() const { return gpgpu::rates(work, seconds()); }
// None for code that keeps data on chip across steps: its minimum bytes are the one-step floor's,
// which it does not move, so their rate is no share of any memory's limit (its time/floor says how
// far past the one-step floor it goes).
double ResultRow::limit_share() const {
  return limit.gbs > 0 && !work.reuses_across_steps ? rates().gbs_min / limit.gbs : std::nan("");
}

Column extra_column(std::string header, std::string key, std::string format) {
  const double scale = format.ends_with("%%") ? 100 : 1;
  return {std::move(header), [key = std::move(key), format = std::move(format), scale](const ResultRow& r) {
            return r.extra.contains(key) && r.extra[key].is_number() ? fmt(format.c_str(), scale * r.extra[key].get<double>())
                                                                     : std::string("-");
          }};
}

void settle_limits(std::vector<ResultRow>& rows) {
  std::vector<Judged> judged;
  for (ResultRow& r : rows)
    judged.push_back({r.backend, r.variant, rates(r.work, r.min_seconds()).gbs_min,
                      (!r.check.checked || r.check.pass) && !r.work.reuses_across_steps, &r.limit});
  settle_limits(judged);
}

int print_verdict(std::ostream& out, const std::vector<ResultRow>& rows, const std::string& what, bool verified) {
  const bool pass = std::all_of(rows.begin(), rows.end(), [](const ResultRow& r) { return !r.check.checked || r.check.pass; });
  out << "\n" << (pass ? "PASS" : "FAIL") << ": " << rows.size() << " " << what << " "
      << (verified ? "verified against the CPU reference" : "NOT verified (--no-verify)");
  return pass ? kExitSuccess : kExitVerificationFailed;
}

void print_result_table(std::ostream& out, const std::vector<ResultRow>& rows, const std::vector<Column>& extra) {
  if (rows.empty()) return;
  const ResultRow& first = rows.front();
  std::vector<std::string> header{"variant", "device", "ms/" + first.work.step, "min-max", "GFLOP/s", "GB/s min",
                                  "GB/s all", first.work.item + "/s", "% of limit"};
  for (const Column& c : extra) header.push_back(c.header);
  header.insert(header.end(), {"error", "check"});
  std::vector<std::vector<std::string>> t{header};
  for (const ResultRow& r : rows) {
    const Rates q = r.rates();
    const double to_ms = 1e3 / r.work.steps;
    std::vector<std::string> cells{r.variant,
                                   r.device,
                                   fmt("%.4f", r.ms_per_step()),
                                   fmt("%.4f", to_ms * r.min_seconds()) + "-" + fmt("%.4f", to_ms * r.max_seconds()),
                                   fmt("%.2f", q.gflops),
                                   fmt("%.1f", q.gbs_min),
                                   fmt("%.1f", q.gbs_all),
                                   si_rate(q.items_per_s),
                                   std::isnan(r.limit_share()) ? "-" : fmt("%.1f%%", 100.0 * r.limit_share())};
    for (const Column& c : extra) cells.push_back(c.cell(r));
    cells.push_back(!r.check.checked ? "-" : r.check.exact && r.check.pass ? "exact" : fmt("%.1e", r.check.rel_l2));
    cells.push_back(r.check.verdict());
    t.push_back(std::move(cells));
  }
  print_text_table(out, t, 2);
  out << "  ms/" << first.work.step << ": median of the timed runs (min-max beside it); rates at the median.\n";
  out << "  Work per " << first.work.item.substr(0, first.work.item.size() - (first.work.item.ends_with('s') ? 1 : 0))
      << " (the problem's work table):\n";
  std::vector<std::string> seen;
  for (const ResultRow& r : rows) {
    if (std::find(seen.begin(), seen.end(), r.work.kernel) != seen.end() || r.work.items <= 0) continue;
    seen.push_back(r.work.kernel);
    out << "    " << r.work.kernel << ": " << fmt("%.4g", r.work.flops / r.work.items) << " FLOP, "
        << fmt("%.4g", r.work.bytes_min / r.work.items) << " B minimum traffic (" << r.work.reads << " arrays read, "
        << r.work.writes << " written), " << fmt("%.4g", r.work.bytes_all / r.work.items) << " B all accesses\n";
  }
  out << "  % of limit = GB/s min / the limit measured in this run with the same read:write mix and working set\n"
         "  (the stream kernel's best run, or a verified variant's where it was faster):\n";
  std::vector<std::string> limits;
  for (const ResultRow& r : rows) {
    const std::string text = describe_limit(r.limit);
    if (std::find(limits.begin(), limits.end(), text) == limits.end()) limits.push_back(text);
  }
  for (const std::string& l : limits) out << "    " << l << '\n';
}

void write_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows) {
  std::ostringstream out;
  out << "variant,backend,device,timer,kernel,steps,repeats,seconds_median,seconds_min,seconds_max,ms_per_step,"
         "gflops,gbs_min,gbs_all,items_per_s,limit_name,limit_gbs,limit_share,rel_error_l2,rel_error_max,check\n";
  const auto quoted = [](const std::string& s) { return "\"" + s + "\""; };
  for (const ResultRow& r : rows) {
    const Rates q = r.rates();
    out << r.variant << ',' << r.backend << ',' << quoted(r.device) << ',' << quoted(r.timer) << ',' << r.work.kernel
        << ',' << r.work.steps << ',' << r.samples.size() << ',' << r.seconds() << ',' << r.min_seconds() << ','
        << r.max_seconds() << ',' << r.ms_per_step() << ',' << q.gflops << ',' << q.gbs_min << ',' << q.gbs_all << ','
        << q.items_per_s << ',' << quoted(r.limit.name) << ',' << r.limit.gbs << ',' << r.limit_share() << ','
        << r.check.rel_l2 << ',' << r.check.rel_max << ',' << r.check.verdict() << '\n';
  }
  write_file(path, out.str());
}

nlohmann::json json_number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

void to_json(nlohmann::json& j, const ResultRow& r) {
  const Rates q = r.rates();
  j = {{"variant", r.variant},
       {"backend", r.backend},
       {"description", r.description},
       {"source", r.source},
       {"paper_name", r.paper_name},
       {"device", r.device},
       {"timer", r.timer},
       {"launch", r.launch},
       {"samples_s", r.samples},
       {"seconds_median", json_number(r.seconds())},
       {"seconds_min", json_number(r.min_seconds())},
       {"seconds_max", json_number(r.max_seconds())},
       {"ms_per_step", json_number(r.ms_per_step())},
       {"work", r.work},
       {"gflops", json_number(q.gflops)},
       {"gbs_min", json_number(q.gbs_min)},
       {"gbs_all", json_number(q.gbs_all)},
       {"items_per_s", json_number(q.items_per_s)},
       {"limit", r.limit},
       {"limit_share", json_number(r.limit_share())},
       {"rel_error_l2", json_number(r.check.rel_l2)},
       {"rel_error_max", json_number(r.check.rel_max)},
       {"tolerance", json_number(r.check.tolerance)},
       {"exact", r.check.exact},
       {"check", r.check.verdict()},
       {"extra", r.extra}};
}

}  // namespace gpgpu
