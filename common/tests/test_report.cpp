// Rates come from the work-count table; the share of the limit, the CSV and the JSON carry them.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/paper000.hpp"
#include "gpgpu/report.hpp"

namespace gpgpu {
namespace {

ResultRow sample_row() {
  ResultRow r;
  r.variant = "demo";
  r.device = "CPU, 1 thread";
  r.timer = "steady_clock";
  r.grid = {1000, 500};
  r.iters = 100;
  r.samples = {2.0, 1.0, 3.0};  // median 2 s
  r.work = work_counts("jacobi9");
  r.limit = {"host copy", 10.0};
  r.check = verify_solution(std::vector<float>{1.0f}, std::vector<double>{1.0}, 1e-6);
  r.residual = 0.5;
  return r;
}

TEST(Report, RatesFollowTheWorkTable) {
  const ResultRow r = sample_row();
  // 5e5 nodes × 100 iterations / 2 s = 2.5e7 node updates per second.
  EXPECT_DOUBLE_EQ(r.seconds(), 2.0);
  EXPECT_DOUBLE_EQ(r.ms_per_iter(), 20.0);
  EXPECT_NEAR(r.rates().gflops, 20 * 2.5e7 / 1e9, 1e-12);
  EXPECT_NEAR(r.rates().gbs_all, 80 * 2.5e7 / 1e9, 1e-12);
  EXPECT_NEAR(r.rates().gbs_min, 48 * 2.5e7 / 1e9, 1e-12);
  EXPECT_NEAR(r.limit_share(), 1.2 / 10.0, 1e-12);
}

TEST(Report, UnknownKernelHasNoCounts) { EXPECT_THROW((void)work_counts("no_such_kernel"), std::out_of_range); }

TEST(Report, ThenNowScalesToThePapersProblem) {
  const ThenNowRow now = now_row(sample_row());
  // 1024² × 1000 node updates at 2.5e7 per second.
  EXPECT_NEAR(now.seconds_1024, 1024.0 * 1024.0 * 1000.0 / 2.5e7, 1e-9);
  const auto cpu = paper000::then_rows("CPU");
  ASSERT_EQ(cpu.size(), 3u);
  EXPECT_NEAR(cpu[2].share, 1.96 / 17.1, 1e-12);  // Table 6: 11.47 %
  const auto tex = paper000::then_rows("CUDA Texture");
  ASSERT_EQ(tex.size(), 3u);
  EXPECT_NEAR(tex[2].share, 92.66 / 141.7, 1e-12);  // Table 8: 65.40 %
}

TEST(Report, PaperTablesAreSelfConsistent) {
  // Table 7 over Table 8 is 80 B / 48 B for every published GPU row but CUDA Shared, whose
  // device-memory count is 56 B per node.
  for (const auto& r : paper000::kResults1024) {
    if (r.implementation == "CPU") continue;
    const double device_bytes = r.implementation == "CUDA Shared" ? 56.0 : 48.0;
    EXPECT_NEAR(r.gbs_all / r.gbs_device, 80.0 / device_bytes, 0.01) << r.implementation;
  }
  // CUDA Texture on the GTX 280: 80 B × 1024² × 1000 / 2^30 / 0.506 s = 154.4 GB/s (Table 7).
  EXPECT_NEAR(80.0 * 1024 * 1024 * 1000 / (1 << 30) / 0.506, 154.44, 0.1);
}

TEST(Report, TableAndCsvAndJsonCarryTheRow) {
  const std::vector<ResultRow> rows{sample_row()};
  std::ostringstream table;
  print_result_table(table, rows);
  EXPECT_NE(table.str().find("demo"), std::string::npos);
  EXPECT_NE(table.str().find("PASS"), std::string::npos);
  EXPECT_NE(table.str().find("12.0%"), std::string::npos);

  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_report.csv";
  write_csv(path, rows);
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  EXPECT_EQ(header.rfind("variant,device,timer,nx,ny,iters", 0), 0u);
  EXPECT_EQ(line.rfind("demo,\"CPU, 1 thread\",steady_clock,1000,500,100,3,2,1,20", 0), 0u) << line;
  std::filesystem::remove(path);

  const nlohmann::json j = rows.front();
  EXPECT_EQ(j.at("variant"), "demo");
  EXPECT_DOUBLE_EQ(j.at("gbs_min").get<double>(), 1.2);
  EXPECT_EQ(j.at("check"), "PASS");
}

TEST(Report, TextTableAlignsColumns) {
  std::ostringstream out;
  print_text_table(out, {{"name", "value"}, {"a", "1"}, {"longer", "100"}}, 1);
  EXPECT_EQ(out.str(), "  name    value\n  -------------\n  a           1\n  longer    100\n");
}

}  // namespace
}  // namespace gpgpu
