#include "gpgpu/points.hpp"

#include <cmath>
#include <ostream>
#include <sstream>
#include <utility>

#include "gpgpu/output_file.hpp"
#include "gpgpu/experiment.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu {
namespace {

// A table cell: a number through the field's format (null: "-"), a string as it is.
std::string cell(const PointField& f, const nlohmann::json& v) {
  if (v.is_number()) {
    const std::string format = f.format;
    return format_cell(f.format, format.find("%%") != std::string::npos ? 100 * v.get<double>() : v.get<double>());
  }
  if (v.is_string()) return v.get<std::string>().empty() ? "-" : v.get<std::string>();
  return "-";
}

// A CSV field: numbers as a stream prints them (null: nan), strings quoted where they must be.
std::string csv_field(const nlohmann::json& v) {
  std::ostringstream s;
  if (v.is_number_integer()) s << v.get<long long>();
  else if (v.is_number()) s << v.get<double>();
  else if (v.is_null()) s << "nan";
  else if (v.is_string()) {
    const std::string text = v.get<std::string>();
    if (text.find_first_of(",\"") == std::string::npos) return text;
    s << '"';
    for (char c : text) s << (c == '"' ? "\"\"" : std::string(1, c));
    s << '"';
  }
  return s.str();
}

}  // namespace

void print_points(std::ostream& out, const std::vector<ResultRow>& points, const std::vector<PointField>& fields) {
  std::vector<std::vector<std::string>> t(1);
  for (const PointField& f : fields)
    if (!f.header.empty()) t[0].push_back(f.header);
  for (const ResultRow& p : points) {
    std::vector<std::string>& row = t.emplace_back();
    for (const PointField& f : fields)
      if (!f.header.empty()) row.push_back(cell(f, f.value(p)));
  }
  print_text_table(out, t, 2);
}

void write_points(const CoreOptions& core, const std::vector<ResultRow>& points, const std::vector<PointField>& fields,
                  nlohmann::json json) {
  json["points"] = nlohmann::json::array();
  std::ostringstream csv;
  const char* comma = "";
  const auto in_csv = [&](const PointField& f) { return !f.key.empty() && (points.empty() || !f.value(points.front()).is_object()); };
  for (const PointField& f : fields)
    if (in_csv(f)) csv << std::exchange(comma, ",") << f.key;
  csv << '\n';
  for (const ResultRow& p : points) {
    nlohmann::json point = nlohmann::json::object();
    comma = "";
    for (const PointField& f : fields) {
      if (f.key.empty()) continue;
      const nlohmann::json v = f.value(p);
      point[f.key] = v;
      if (in_csv(f)) csv << std::exchange(comma, ",") << csv_field(v);
    }
    csv << '\n';
    json["points"].push_back(std::move(point));
  }
  if (!core.csv_path.empty()) write_file(core.csv_path, csv.str());
  if (!core.json_path.empty()) Experiment::write_json(core.json_path, json);
}

}  // namespace gpgpu
