/// @file result.hpp
/// @brief One measured variant (a result row), the table every chapter prints, and its CSV and
/// JSON forms.
///
/// Every rate in a row comes from its Work (the problem's work table) and its timed samples;
/// "% of limit" is the median's minimum-traffic GB/s over a limit measured in the same run with
/// the same read:write mix and working set (limit_rule.hpp: the stream kernel's best run, or a
/// verified variant's where it was faster, so no share exceeds 100%).
#pragma once
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/backend.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu {

/// One measured variant.
struct ResultRow {
  std::string variant;      ///< --variant name
  std::string backend;      ///< backend_name(): "cpu", "cuda", ...
  std::string description;  ///< one line: what the variant does
  std::string source;       ///< the file that holds its kernel or loop
  std::string paper_name;   ///< the paper's name for it ("CUDA Simple"), or "" past the paper
  std::string device;       ///< what it ran on ("CPU, 1 thread", "NVIDIA H100 80GB HBM3")
  std::string timer;        ///< how it was timed ("steady_clock", "CUDA events", ...)
  std::string launch;       ///< launch shape, layout, tuning (may be empty)
  std::vector<double> samples;  ///< seconds of each timed run
  Work work;                ///< the work of one timed run
  Limit limit;              ///< the limit that judges it
  Verification check;       ///< against the CPU reference
  nlohmann::json extra = nlohmann::json::object();  ///< the problem's own numbers (residual, ...)

  [[nodiscard]] double seconds() const;      ///< median of samples
  [[nodiscard]] double min_seconds() const;
  [[nodiscard]] double max_seconds() const;
  /// Median milliseconds per step (iteration, time step, call).
  [[nodiscard]] double ms_per_step() const;
  [[nodiscard]] Rates rates() const;         ///< at the median time
  /// Minimum-traffic GB/s at the median time over the limit: the share of the hardware reached.
  [[nodiscard]] double limit_share() const;
};

/// The limit rule (limit_rule.hpp) over `rows`: a verified row of a limit's class that moved its
/// bytes faster than the stream kernel did raises that limit for every row of the class.
void settle_limits(std::vector<ResultRow>& rows);

/// Prints "PASS: N <what> verified against the CPU reference" (or FAIL, or NOT verified) and
/// returns the exit code: 0 when every row that was checked passed, 1 otherwise.
int print_verdict(std::ostream& out, const std::vector<ResultRow>& rows, const std::string& what, bool verified);

/// An extra column a problem adds to the result table (the Jacobi residual, say).
struct Column {
  std::string header;
  std::function<std::string(const ResultRow&)> cell;
};

/// A column of a number the problem keeps in its rows' `extra` under `key`, printed with the printf
/// `format` ("%.3f"); a format that ends in "%%" prints a share as a percentage (the value x 100);
/// "-" where a row has none.
[[nodiscard]] Column extra_column(std::string header, std::string key, std::string format);

/// Prints the result table: per variant its device, ms per step (median, and min-max), GFLOP/s,
/// GB/s (minimum traffic and all accesses), items per second, % of limit, the extra columns, the
/// error and the verdict; then the work counts and the limits it was judged against.
void print_result_table(std::ostream& out, const std::vector<ResultRow>& rows, const std::vector<Column>& extra = {});

/// Writes the rows as CSV (header line + one line per variant) through an OutputFile (UsageError when
/// it cannot).
void write_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows);

void to_json(nlohmann::json& j, const ResultRow& r);

/// JSON has no NaN: non-finite numbers become null.
nlohmann::json json_number(double v);

}  // namespace gpgpu
