#include "gpgpu/limit_rule.hpp"

#include <cmath>
#include <algorithm>
#include <map>
#include <ostream>
#include <tuple>

#include "gpgpu/table.hpp"

namespace gpgpu {

void settle_limits(const std::vector<Judged>& judged) {
  using Class = std::tuple<std::string, std::string, std::string, std::string>;
  struct Best {
    double gbs = 0;
    std::string variant;
  };
  std::map<Class, Best> best;
  const auto class_of = [](const Judged& j) { return Class{j.backend, j.limit->name, j.limit->mix, j.limit->working_set}; };
  // The stream kernel's figure first (the first time a limit is settled, its gbs is that figure).
  for (const Judged& j : judged) {
    Limit& l = *j.limit;
    if (!std::isfinite(l.stream_gbs)) l.stream_gbs = l.gbs;
    Best& b = best[class_of(j)];
    b.gbs = std::max(b.gbs, l.stream_gbs);
  }
  // Then any trusted run that beat it.
  for (const Judged& j : judged) {
    Best& b = best[class_of(j)];
    if (j.trusted && std::isfinite(j.best_gbs) && j.best_gbs > b.gbs) b = {j.best_gbs, j.variant};
  }
  for (const Judged& j : judged) {
    const Best& b = best.at(class_of(j));
    j.limit->gbs = b.gbs;
    j.limit->raised_by = b.variant;
  }
}

std::string describe_limit(const Limit& l) {
  const bool raised = !l.raised_by.empty();
  std::string text = l.name + ": " + format_cell("%.1f", raised ? l.stream_gbs : l.gbs) + " GB/s, " + l.working_set;
  if (std::isfinite(l.theoretical_gbs))
    text += "; theoretical " + format_cell("%.0f", l.theoretical_gbs) + " GB/s from memory clock x bus width";
  if (raised)
    text += "; beaten by " + l.raised_by + "'s best run, which is the limit: " + format_cell("%.1f", l.gbs) + " GB/s";
  return text;
}

void print_raised_limits(std::ostream& out, const std::vector<const Limit*>& limits) {
  std::vector<std::string> printed;
  for (const Limit* l : limits) {
    if (l->raised_by.empty()) continue;
    std::string line = describe_limit(*l);
    if (std::find(printed.begin(), printed.end(), line) != printed.end()) continue;
    out << "    " << line << '\n';
    printed.push_back(std::move(line));
  }
}

}  // namespace gpgpu
