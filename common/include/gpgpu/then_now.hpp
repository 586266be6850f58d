/// @file then_now.hpp
/// @brief The table that sets a paper's figures ("then") beside this run's ("now").
///
/// A paper counts in its own units: 2^30-byte gigabytes, its own FLOPs per node, seconds for its own
/// problem size. Each column names the unit of its numbers, and a problem library fills the "now"
/// rows in the same units as the paper's (converting our measurement, never the paper's figure),
/// so that every column compares like with like. Where a paper does not give a figure the cell is
/// NaN and prints "-".
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpgpu {

struct ThenNowColumn {
  std::string header;  ///< "s/1000 it."
  std::string unit;    ///< what the numbers mean: "seconds for 1000 iterations at 1024 x 1024"
  std::string format;  ///< printf format of a cell: "%.3f"
};

struct ThenNowRow {
  std::string when;            ///< "then" (a paper) or "now" (this run)
  std::string machine;         ///< the paper's machine or our device
  std::string implementation;  ///< the paper's name or our variant
  std::string source;          ///< "paper 000, Tables 3, 5" or "this run"
  std::vector<double> values;  ///< one per column, NaN where there is no figure
};

struct ThenNowTable {
  std::string title;
  std::vector<ThenNowColumn> columns;
  std::vector<ThenNowRow> rows;
  std::vector<std::string> notes;  ///< printed under the table: counts, units, conversions
  [[nodiscard]] bool empty() const { return rows.empty(); }
};

void print_then_now(std::ostream& out, const ThenNowTable& table);
void to_json(nlohmann::json& j, const ThenNowTable& table);

}  // namespace gpgpu
