/// @file points.hpp
/// @brief A sweep's points as one printed table, one CSV file and the "points" of one JSON file,
/// all three from one list of fields, so that they cannot disagree.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/cli.hpp"
#include "gpgpu/result.hpp"

namespace gpgpu {

/// One field of every point.
struct PointField {
  std::string key;     ///< its name in the JSON points and the CSV header; "" for the table only
  std::string header;  ///< its column in the printed table; "" for the files only
  /// printf format of a number in the table ("%.4f"); one that ends in "%%" prints a share as a
  /// percentage (the value x 100)
  const char* format;
  /// Its value at a point: a number (NaN: null in the JSON), a string, or an object (the JSON only).
  std::function<nlohmann::json(const ResultRow&)> value;
};

/// A number as a point's value: NaN and infinities become null (json_number).
[[nodiscard]] inline nlohmann::json point_number(double v) { return json_number(v); }

/// Prints the table of the fields that have a header, one row per point, indented by two.
void print_points(std::ostream& out, const std::vector<ResultRow>& points, const std::vector<PointField>& fields);

/// Writes --csv (every field with a key but objects, as columns) and --json: `json` (the run's json_header()
/// and the problem's own sections) with the points added as "points". Either is skipped when its
/// option was not given.
void write_points(const CoreOptions& core, const std::vector<ResultRow>& points, const std::vector<PointField>& fields,
                  nlohmann::json json);

}  // namespace gpgpu
