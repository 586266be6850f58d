/// @file report.hpp
/// @brief The result table every chapter prints, writes as CSV and as JSON, and the "then / now"
/// table that sets the paper's figures beside ours.
#pragma once
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gpgpu/grid.hpp"
#include "gpgpu/verify.hpp"
#include "gpgpu/work_counts.hpp"

namespace gpgpu {

/// A bandwidth limit measured in the same run (host copy, device-to-device copy, ...).
struct Limit {
  std::string name;  ///< e.g. "host copy, 2 threads"
  double gbs = 0;    ///< 1e9 B/s, bytes read + written
};

/// One measured variant.
struct ResultRow {
  std::string variant;      ///< --variant name
  std::string description;  ///< one line: what the variant does
  std::string device;       ///< what it ran on ("CPU, 1 thread", "NVIDIA H100 80GB HBM3")
  std::string timer;        ///< how it was timed ("steady_clock", "CUDA events", ...)
  Grid grid;
  int iters = 0;
  std::vector<double> samples;  ///< seconds for `iters` iterations, one per timed run
  WorkCounts work{};
  Limit limit;
  Verification check;
  double residual = 0;      ///< ‖f − Ax‖/‖f‖ of the result

  [[nodiscard]] double seconds() const;      ///< median of samples
  [[nodiscard]] double ms_per_iter() const;
  [[nodiscard]] Rates rates() const;
  /// Minimum-traffic GB/s over the measured limit: the share of the hardware the variant reaches.
  [[nodiscard]] double limit_share() const;
};

/// One table cell: `value` printed with a printf `format` ("%.4f"), "-" when it is not finite.
std::string format_cell(const char* format, double value);

/// Prints rows of cells as aligned columns, a rule under the first (header) row. The first
/// `left_aligned` columns are left-aligned (names), the others right-aligned (numbers).
void print_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, std::size_t left_aligned);

/// Prints the result table (one row per variant) with a legend of the byte and FLOP counts.
void print_result_table(std::ostream& out, const std::vector<ResultRow>& rows);

/// One line of the then/now comparison.
struct ThenNowRow {
  std::string when;            ///< "then" (paper) or "now" (this run)
  std::string machine;         ///< paper machine key or our device
  std::string implementation;
  double seconds_1024 = 0;     ///< seconds for 1000 iterations on 1024² (ours: equivalent from our rate)
  double gflops = 0;           ///< as published / as measured
  double gbs_all = 0;          ///< all accesses
  double gbs_min = 0;          ///< device memory only / minimum traffic (NaN if not published)
  double share = 0;            ///< fraction of the machine's bandwidth (then: theoretical peak, now: measured)
};

/// Our row as a then/now line (equivalent time from the measured node rate).
ThenNowRow now_row(const ResultRow& r);

/// Prints the then/now table with notes on the units.
void print_then_now(std::ostream& out, const std::vector<ThenNowRow>& rows);

/// Writes the rows as CSV (header line + one line per variant).
void write_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows);

void to_json(nlohmann::json& j, const ResultRow& r);
void to_json(nlohmann::json& j, const ThenNowRow& r);
void to_json(nlohmann::json& j, const Limit& l);

}  // namespace gpgpu
