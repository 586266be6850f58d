// The Jacobi chapter run end to end with CPU solvers: a correct one passes, one with a wrong
// coefficient fails verification (exit 1); the work table, the option group, and the then/now
// conversion into the paper's units.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "gpgpu/jacobi/paper000.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/then_now.hpp"
#include "gpgpu/jacobi/work.hpp"

namespace gpgpu::jacobi {
namespace {

// The double-precision reference as a solver, optionally with the centre coefficient scaled (a
// kernel that reads a wrong diagonal).
class ReferenceSolver final : public Solver {
 public:
  ReferenceSolver(const LinearSystem& sys, float centre_scale) : sys_(sys) {
    for (float& c : sys_.A.diag[idx(Dir::C)]) c *= centre_scale;
  }
  void reset(std::span<const float> x0) override { x_.assign(x0.begin(), x0.end()); }
  double iterate(int iters, float omega) override {
    const std::vector<double> r = jacobi_reference(sys_, x_, iters, omega);
    x_.assign(r.begin(), r.end());
    return 1e-3 * iters;
  }
  std::vector<float> solution() override { return x_; }

 private:
  LinearSystem sys_;
  std::vector<float> x_;
};

Variant reference_variant(const std::string& name, float centre_scale) {
  Variant v;
  v.info = {name, Backend::cpu, "the reference as a solver", "tests/test_chapter.cpp", "", "fake", 1};
  v.opener = cpu_opener;
  v.make = [centre_scale](const LinearSystem& sys, Session&) { return std::make_unique<ReferenceSolver>(sys, centre_scale); };
  return v;
}

int run(Chapter& chapter, std::vector<std::string> args, std::string& json) {
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_chapter.json";
  args.insert(args.begin(), "test_chapter");
  args.insert(args.end(), {"--json", path.string(), "--threads", "1"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  const int code = chapter.run(static_cast<int>(argv.size()), argv.data());
  testing::internal::GetCapturedStdout();
  std::ifstream in(path);
  json.assign(std::istreambuf_iterator<char>(in), {});
  std::filesystem::remove(path);
  return code;
}

const ChapterInfo kInfo{"99", "test_chapter", "test", "none"};

TEST(JacobiChapter, ACorrectSolverPassesAndAWrongOneFails) {
  Chapter chapter(kInfo, {.cli = {1, 0}});
  chapter.add(reference_variant("right", 1.0f));
  chapter.add(reference_variant("wrong_centre", 1.001f));
  std::string json;
  EXPECT_EQ(run(chapter, {"--nx", "13", "--ny", "7", "--iters", "9"}, json), kExitVerificationFailed);
  const auto j = nlohmann::json::parse(json);
  ASSERT_EQ(j.at("results").size(), 2u);
  EXPECT_EQ(j.at("results")[0].at("check"), "PASS");
  EXPECT_EQ(j.at("results")[1].at("check"), "FAIL");
  EXPECT_EQ(j.at("problem").at("nx"), 13);
  EXPECT_DOUBLE_EQ(j.at("results")[0].at("work").at("items").get<double>(), 13.0 * 7 * 9);
}

TEST(JacobiChapter, VariantOptionSelects) {
  Chapter chapter(kInfo, {.cli = {1, 0}});
  chapter.add(reference_variant("right", 1.0f));
  chapter.add(reference_variant("wrong_centre", 1.5f));
  std::string json;
  EXPECT_EQ(run(chapter, {"--quick", "--variant", "right"}, json), kExitSuccess);
  const auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j.at("results").size(), 1u);
  EXPECT_EQ(j.at("problem").at("nx"), QuickSizes{}.grid.nx);
}

TEST(JacobiChapter, SweepRefusesTheOptionsItWouldIgnore) {
  // The sweep's widths are its own and it writes no .npy files: --nx and --dump are usage errors.
  const std::string dump = (std::filesystem::temp_directory_path() / "gpgpu_test_sweep_dump").string();
  ChapterSettings sweep;
  sweep.width_sweep = true;
  for (const auto& extra : {std::vector<std::string>{"--nx", "600"}, {"--dump", dump}}) {
    Chapter chapter(kInfo, sweep);
    chapter.add(reference_variant("right", 1.0f));
    std::vector<std::string> args{"test_chapter", "--sweep", "paper", extra[0], extra[1]};
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    EXPECT_THROW(chapter.parse(static_cast<int>(argv.size()), argv.data()), UsageError) << extra[0];
  }
  EXPECT_FALSE(std::filesystem::exists(dump));  // refused before the folder was made
  Chapter alone(kInfo, sweep);
  alone.add(reference_variant("right", 1.0f));
  const char* argv[] = {"test_chapter", "--sweep", "paper", "--ny", "16"};
  EXPECT_NO_THROW(alone.parse(5, argv));
}

TEST(JacobiChapter, TheSweepVerifiesEveryWidthOfEveryVariant) {
  ChapterSettings sweep{.cli = {1, 0}, .width_sweep = true};
  Chapter chapter(kInfo, sweep);
  chapter.add(reference_variant("right", 1.0f));
  chapter.add(reference_variant("wrong_centre", 1.01f));
  std::string json;
  EXPECT_EQ(run(chapter, {"--sweep", "paper", "--ny", "9", "--iters", "7"}, json), kExitVerificationFailed);
  const auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j.at("schema"), "gpgpu-then-and-now/width-sweep");
  ASSERT_EQ(j.at("points").size(), 2 * paper000::kSweepWidths.size());
  for (const auto& p : j.at("points")) {
    EXPECT_EQ(p.at("check"), p.at("variant") == "right" ? "PASS" : "FAIL") << p.dump();
    EXPECT_EQ(p.at("height"), 9);
  }
  EXPECT_EQ(j.at("points")[0].at("width"), paper000::kSweepWidths[0]);
}

TEST(JacobiWork, TableRowsAndTheirMix) {
  const Work w = work("jacobi9", {10, 20}, 3);
  EXPECT_DOUBLE_EQ(w.items, 600);
  EXPECT_DOUBLE_EQ(w.bytes_min, 48.0 * 600);
  EXPECT_DOUBLE_EQ(w.bytes_all, 80.0 * 600);
  EXPECT_DOUBLE_EQ(w.flops, 20.0 * 600);
  const StreamMix sym = stream_mix("jacobi9_symmetric", {10, 20});
  EXPECT_EQ(sym.reads, 7);
  EXPECT_EQ(sym.writes, 1);
  EXPECT_DOUBLE_EQ(sym.bytes(), 32.0 * 200);  // the kernel's minimum traffic of one iteration
  EXPECT_THROW((void)work("no_such_kernel", {1, 1}, 1), std::out_of_range);
}

TEST(JacobiThenNow, OurRowsAreConvertedIntoThePapersUnits) {
  ResultRow r;
  r.variant = "texture";
  r.device = "GPU";
  r.paper_name = "CUDA Texture";
  r.work = work("jacobi9", {1024, 1024}, 1000);
  r.samples = {0.25};
  r.limit.gbs = 250.0;
  r.limit.theoretical_gbs = 300.0;
  const ThenNowTable t = then_now({"CUDA Texture"}, {r});
  ASSERT_EQ(t.rows.size(), 4u);  // the paper's three machines, then ours
  const ThenNowRow& now = t.rows.back();
  const double rate = 1024.0 * 1024.0 * 1000.0 / 0.25;
  EXPECT_DOUBLE_EQ(now.values[0], 0.25);                             // s per 1000 iterations at 1024²
  EXPECT_DOUBLE_EQ(now.values[2], 33.0);                             // the paper's count for CUDA Texture
  EXPECT_DOUBLE_EQ(now.values[1], 33.0 * rate / 1e9);                // GFLOP/s at that count
  EXPECT_DOUBLE_EQ(now.values[3], 80.0 * rate / paper000::kGiB);     // GB/s all, 2^30
  EXPECT_DOUBLE_EQ(now.values[4], 48.0 * rate / paper000::kGiB);     // GB/s device, 2^30
  EXPECT_DOUBLE_EQ(now.values[6], 100.0 * 48.0 * rate / 1e9 / 300);  // % of theoretical
  EXPECT_DOUBLE_EQ(now.values[7], 100.0 * 48.0 * rate / 1e9 / 250);  // % of the measured limit
  EXPECT_TRUE(std::isnan(t.rows[0].values[7]));                      // the paper had no measured limit
}

TEST(JacobiThenNow, KernelsOnlyInTableOneAreScaledFromWidth512) {
  const ThenNowTable t = then_now({"CUDA Simple"}, {});
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[2].machine, "GeForce GTX 280");
  EXPECT_DOUBLE_EQ(t.rows[2].values[0], 2 * 0.431);  // Table 1, width 512
}

}  // namespace
}  // namespace gpgpu::jacobi
