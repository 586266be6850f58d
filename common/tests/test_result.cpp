// A result row: its rates come from its Work and its samples alone, its share from its limit; the
// table, the CSV and the JSON carry them, with the spread of the samples.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/result.hpp"
#include "gpgpu/then_now.hpp"

namespace gpgpu {
namespace {

Work sample_work() {
  Work w;
  w.kernel = "demo_kernel";
  w.flops = 3e9;
  w.bytes_min = 8e9;
  w.bytes_all = 12e9;
  w.items = 1e9;
  w.item = "elements";
  w.steps = 10;
  w.step = "iter";
  w.reads = 3;
  w.writes = 1;
  return w;
}

ResultRow sample_row() {
  ResultRow r;
  r.variant = "demo";
  r.backend = "cpu";
  r.device = "CPU, 1 thread";
  r.timer = "steady_clock";
  r.samples = {4.0, 1.0, 2.0};  // median 2 s, min 1 s, max 4 s
  r.work = sample_work();
  r.limit = {"stream 3:1", 10.0, "3:1", "memory", std::nan(""), std::nan(""), {}};
  r.check = compare_normwise(std::vector<float>{1.0f}, std::vector<double>{1.0}, 1e-6);
  return r;
}

TEST(Result, RatesAreWorkOverTheMedianTime) {
  const ResultRow r = sample_row();
  const Work w = sample_work();
  EXPECT_DOUBLE_EQ(r.seconds(), 2.0);
  EXPECT_DOUBLE_EQ(r.min_seconds(), 1.0);
  EXPECT_DOUBLE_EQ(r.max_seconds(), 4.0);
  EXPECT_DOUBLE_EQ(r.ms_per_step(), 1e3 * 2.0 / w.steps);
  const Rates q = r.rates();
  EXPECT_DOUBLE_EQ(q.gflops, w.flops / 2.0 / 1e9);
  EXPECT_DOUBLE_EQ(q.gbs_min, w.bytes_min / 2.0 / 1e9);
  EXPECT_DOUBLE_EQ(q.gbs_all, w.bytes_all / 2.0 / 1e9);
  EXPECT_DOUBLE_EQ(q.items_per_s, w.items / 2.0);
  EXPECT_DOUBLE_EQ(r.limit_share(), q.gbs_min / r.limit.gbs);
  EXPECT_DOUBLE_EQ(floor_seconds(w, r.limit.gbs), w.bytes_min / (r.limit.gbs * 1e9));
}

TEST(Result, NoLimitMeansNoShare) {
  ResultRow r = sample_row();
  r.limit.gbs = 0;
  EXPECT_TRUE(std::isnan(r.limit_share()));
}

TEST(Result, TableShowsSpreadShareAndVerdict) {
  std::ostringstream out;
  print_result_table(out, {sample_row()}, {{"extra", [](const ResultRow&) { return std::string("X42"); }}});
  const std::string t = out.str();
  EXPECT_NE(t.find("demo"), std::string::npos);
  EXPECT_NE(t.find("200.0000"), std::string::npos) << t;           // median ms per iteration
  EXPECT_NE(t.find("100.0000-400.0000"), std::string::npos) << t;  // min-max
  EXPECT_NE(t.find("40.0%"), std::string::npos) << t;              // 4 GB/s of a 10 GB/s limit
  EXPECT_NE(t.find("X42"), std::string::npos);
  EXPECT_NE(t.find("PASS"), std::string::npos);
  EXPECT_NE(t.find("stream 3:1"), std::string::npos);
}

TEST(Result, CsvAndJsonCarryTheRow) {
  const std::vector<ResultRow> rows{sample_row()};
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_result.csv";
  write_csv(path, rows);
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  EXPECT_EQ(header.rfind("variant,backend,device,timer,kernel,steps,repeats,seconds_median,seconds_min,seconds_max", 0), 0u);
  EXPECT_EQ(line.rfind("demo,cpu,\"CPU, 1 thread\",\"steady_clock\",demo_kernel,10,3,2,1,4,200,", 0), 0u) << line;
  std::filesystem::remove(path);

  const nlohmann::json j = rows.front();
  EXPECT_EQ(j.at("variant"), "demo");
  EXPECT_DOUBLE_EQ(j.at("gbs_min").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j.at("seconds_max").get<double>(), 4.0);
  EXPECT_EQ(j.at("check"), "PASS");
  EXPECT_TRUE(j.at("limit").at("theoretical_gbs").is_null());  // NaN has no JSON form
  EXPECT_EQ(j.at("work").at("reads"), 3);
}

TEST(ThenNow, PrintsUnitsAndDashesForMissingFigures) {
  ThenNowTable t;
  t.title = "Then and now";
  t.columns = {{"s", "seconds for the whole run", "%.2f"}, {"GB/s", "2^30 B/s", "%.1f"}};
  t.rows = {{"then", "old GPU", "kernel", "paper, Table 1", {1.5, std::nan("")}},
            {"now", "new GPU", "kernel", "this run", {0.25, 3000.0}}};
  std::ostringstream out;
  print_then_now(out, t);
  const std::string s = out.str();
  EXPECT_NE(s.find("1.50"), std::string::npos);
  EXPECT_NE(s.find("3000.0"), std::string::npos);
  EXPECT_NE(s.find(" -"), std::string::npos) << s;
  EXPECT_NE(s.find("GB/s: 2^30 B/s"), std::string::npos);
  const nlohmann::json j = t;
  EXPECT_TRUE(j.at("rows")[0].at("values")[1].is_null());
}

}  // namespace
}  // namespace gpgpu
