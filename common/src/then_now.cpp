#include "gpgpu/then_now.hpp"

#include <ostream>

#include <nlohmann/json.hpp>

#include "gpgpu/result.hpp"
#include "gpgpu/table.hpp"

namespace gpgpu {

void print_then_now(std::ostream& out, const ThenNowTable& table) {
  if (table.empty()) return;
  out << "\n" << table.title << ":\n";
  std::vector<std::string> header{"when", "machine", "implementation"};
  for (const ThenNowColumn& c : table.columns) header.push_back(c.header);
  std::vector<std::vector<std::string>> t{header};
  for (const ThenNowRow& r : table.rows) {
    std::vector<std::string> cells{r.when, r.machine, r.implementation};
    for (std::size_t c = 0; c < table.columns.size(); ++c)
      cells.push_back(c < r.values.size() ? format_cell(table.columns[c].format.c_str(), r.values[c]) : "-");
    t.push_back(std::move(cells));
  }
  print_text_table(out, t, 3);
  for (const ThenNowColumn& c : table.columns) out << "  " << c.header << ": " << c.unit << "\n";
  for (const std::string& n : table.notes) out << "  " << n << "\n";
}

void to_json(nlohmann::json& j, const ThenNowTable& table) {
  j = nlohmann::json::object();
  j["title"] = table.title;
  j["columns"] = nlohmann::json::array();
  for (const ThenNowColumn& c : table.columns) j["columns"].push_back({{"header", c.header}, {"unit", c.unit}});
  j["rows"] = nlohmann::json::array();
  for (const ThenNowRow& r : table.rows) {
    nlohmann::json values = nlohmann::json::array();
    for (double v : r.values) values.push_back(json_number(v));
    j["rows"].push_back({{"when", r.when}, {"machine", r.machine}, {"implementation", r.implementation},
                         {"source", r.source}, {"values", values}});
  }
  j["notes"] = table.notes;
}

}  // namespace gpgpu
