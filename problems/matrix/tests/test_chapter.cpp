// The matrix chapter run end to end with CPU operations: a correct add and transpose pass, a transpose
// that misses the last row fails (exit 1), and the option group refuses what it must.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/matrix/chapter.hpp"
#include "gpgpu/timing.hpp"

namespace gpgpu::matrix {
namespace {

// The references as operations; `skip_last_row` leaves the last row of the result poisoned.
class ReferenceOperation final : public Operation {
 public:
  ReferenceOperation(Op op, bool skip_last_row) : op_(op), skip_last_row_(skip_last_row) {}
  void upload(const Inputs& in) override { in_ = in; }
  double run(int calls) override {
    Stopwatch clock;
    for (int c = 0; c < calls; ++c) out_ = op_ == Op::add ? add_reference(in_.a, in_.b) : transpose_reference(in_.a);
    if (skip_last_row_) {
      auto v = out_.as<float>();
      std::fill(v.end() - out_.shape().cols, v.end(), std::nanf(""));
    }
    return clock.seconds();
  }
  HostMatrix download() override { return out_; }

 private:
  Op op_;
  bool skip_last_row_;
  Inputs in_;
  HostMatrix out_;
};

Variant variant(const std::string& name, Op op, bool broken, std::string ports = "", std::string paper_name = "") {
  Variant v;
  v.info = {name, Backend::cpu, "reference as an operation", "tests/test_chapter.cpp", std::move(paper_name), "steady_clock", 1};
  v.ports = std::move(ports);
  v.opener = cpu_opener;
  v.op = op;
  v.make = [op, broken](const Inputs&, Session&) { return std::make_unique<ReferenceOperation>(op, broken); };
  return v;
}

int run(Chapter& chapter, std::vector<std::string> args, nlohmann::json* json = nullptr, const std::string& csv = "") {
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_matrix_chapter.json";
  args.insert(args.begin(), "test");
  args.insert(args.end(), {"--json", path.string(), "--threads", "1"});
  if (!csv.empty()) args.insert(args.end(), {"--csv", csv});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  int code = 0;
  try {
    code = chapter.run(static_cast<int>(argv.size()), argv.data());
  } catch (...) {
    testing::internal::GetCapturedStdout();  // one capture at a time: end it before the next test
    throw;
  }
  testing::internal::GetCapturedStdout();
  if (json != nullptr) {
    std::ifstream in(path);
    *json = nlohmann::json::parse(in);
  }
  std::filesystem::remove(path);
  return code;
}

const ChapterInfo kInfo{"99", "test", "test", "none"};

TEST(MatrixChapter, CorrectOperationsPassAndAMissedRowFails) {
  Chapter chapter(kInfo, {.cli = {1, 0}, .default_shape = {16, 16}});
  chapter.add(variant("add", Op::add, false));
  chapter.add(variant("transpose", Op::transpose, false));
  chapter.add(variant("transpose_short", Op::transpose, true));
  nlohmann::json j;
  EXPECT_EQ(run(chapter, {"--rows", "17", "--cols", "33"}, &j), kExitVerificationFailed);
  ASSERT_EQ(j.at("results").size(), 3u);
  EXPECT_EQ(j.at("results")[0].at("check"), "PASS");
  EXPECT_EQ(j.at("results")[1].at("check"), "PASS");
  EXPECT_EQ(j.at("results")[2].at("check"), "FAIL");
  EXPECT_TRUE(j.at("results")[0].at("extra").at("ms_with_copies").is_number());
  EXPECT_EQ(j.at("problem").at("rows"), 17);
}

TEST(MatrixChapter, PaperRowsAppearAtThePapersSizes) {
  Chapter chapter(kInfo, {.cli = {1, 0}});
  chapter.add(variant("add", Op::add, false));
  nlohmann::json j;
  EXPECT_EQ(run(chapter, {"--n", "64", "--type", "int"}, &j), kExitSuccess);
  int then_rows = 0;
  for (const auto& r : j.at("then_now").at("rows")) then_rows += r.at("when") == "then";
  EXPECT_EQ(then_rows, 5);  // Tab. 8: CPU, CUDA, OpenCL and the two OPT rows
}

TEST(MatrixChapter, APortIsComparedWithItsOriginal) {
  // "port" claims to port "original" (as an OpenCL variant ports a CUDA one): the run reports the
  // ratio of their times, and the paper's OpenCL/CUDA ratio at a size of its tables (Tab. 8, int add).
  Chapter chapter(kInfo, {.cli = {1, 0}});
  chapter.add(variant("original", Op::add, false, "", "CUDA"));
  chapter.add(variant("port", Op::add, false, "original", "OpenCL"));
  nlohmann::json j;
  EXPECT_EQ(run(chapter, {"--n", "256", "--type", "int"}, &j), kExitSuccess);
  ASSERT_EQ(j.at("port_ratios").size(), 1u);
  const nlohmann::json& r = j.at("port_ratios")[0];
  EXPECT_EQ(r.at("variant"), "port");
  EXPECT_EQ(r.at("original"), "original");
  EXPECT_GT(r.at("kernel_ratio").get<double>(), 0);
  EXPECT_NEAR(r.at("paper_ratio").get<double>(), 2.4957 / 0.6296, 1e-9);  // Tab. 8, n = 256
  EXPECT_EQ(r.at("paper_table"), "Tab. 8");
  EXPECT_TRUE(j.at("results")[0].at("extra").at("ms_first_call").is_number());
}

TEST(MatrixChapter, AVariantThisDeviceCannotRunIsSkippedUnlessNamed) {
  // As an OpenCL tile whose work-groups the device does not allow, or cuBLAS geam with --type int.
  const auto with_limitation = [] {
    Variant v = variant("no_int", Op::add, false);
    v.limitation = [](const Size& s, Session&) -> std::optional<std::string> {
      return s.type == ElementType::i32 ? std::optional<std::string>("no int here") : std::nullopt;
    };
    return v;
  };
  Chapter all(kInfo, {.cli = {1, 0}});
  all.add(variant("add", Op::add, false));
  all.add(with_limitation());
  nlohmann::json j;
  EXPECT_EQ(run(all, {"--n", "16", "--type", "int", "--variant", "all"}, &j), kExitSuccess);
  ASSERT_EQ(j.at("results").size(), 1u);
  ASSERT_EQ(j.at("skipped").size(), 1u);
  EXPECT_EQ(j.at("skipped")[0].at("reason"), "no int here");
  Chapter named(kInfo, {.cli = {1, 0}});
  named.add(variant("add", Op::add, false));
  named.add(with_limitation());
  EXPECT_THROW(run(named, {"--n", "16", "--type", "int", "--variant", "add,no_int"}), UsageError);
}

TEST(MatrixChapter, TheSweepVerifiesAndTimesEverySize) {
  Chapter chapter(kInfo, {.cli = {1, 0}, .sweep = true});
  chapter.add(variant("original", Op::transpose, false, "", "CUDA"));
  chapter.add(variant("port", Op::transpose, false, "original", "OpenCL"));
  nlohmann::json j;
  const auto csv = std::filesystem::temp_directory_path() / "gpgpu_test_matrix_sweep.csv";
  EXPECT_EQ(run(chapter, {"--sweep", "paper", "--quick"}, &j, csv.string()), kExitSuccess);
  EXPECT_EQ(j.at("schema"), "gpgpu-then-and-now/matrix-sweep");
  EXPECT_EQ(j.at("complete"), true);
  ASSERT_EQ(j.at("points").size(), 2u * 5);  // n = 16, 32, 64, 128, 256 (--quick)
  for (const nlohmann::json& p : j.at("points")) {
    EXPECT_EQ(p.at("check"), "PASS");
    EXPECT_GT(p.at("ms_with_copies").get<double>(), 0);
  }
  EXPECT_EQ(j.at("points")[0].at("paper_table"), "Tab. 10 (float)");  // the CUDA transpose of Tab. 10
  ASSERT_EQ(j.at("port_ratios").size(), 5u);
  EXPECT_NEAR(j.at("port_ratios")[0].at("paper_ratio").get<double>(), 3.5779 / 0.1786, 1e-9);  // 20x at n = 16
  std::ifstream in(csv);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 1 + 10);
  std::filesystem::remove(csv);
}

TEST(MatrixChapter, TheSweepFailsWhenOnePointFails) {
  Chapter chapter(kInfo, {.cli = {1, 0}, .sweep = true});
  chapter.add(variant("transpose_short", Op::transpose, true));
  nlohmann::json j;
  EXPECT_EQ(run(chapter, {"--sweep", "paper", "--quick"}, &j), kExitVerificationFailed);
  EXPECT_EQ(j.at("points")[0].at("check"), "FAIL");
}

TEST(MatrixChapter, AStoppedSweepLeavesTheSizesItFinished) {
  // A batch's time limit stops a sweep part way; here a variant that throws at n = 64 does.
  Chapter chapter(kInfo, {.cli = {1, 0}, .sweep = true});
  Variant v = variant("transpose", Op::transpose, false);
  v.make = [](const Inputs& in, Session&) -> std::unique_ptr<Operation> {
    if (in.a.shape().rows == 64) throw std::runtime_error("stopped at n = 64");
    return std::make_unique<ReferenceOperation>(Op::transpose, false);
  };
  chapter.add(std::move(v));
  EXPECT_THROW(run(chapter, {"--sweep", "paper", "--quick"}), std::runtime_error);
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_matrix_chapter.json";
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("complete"), false);
  ASSERT_EQ(j.at("points").size(), 2u);  // n = 16 and 32
  EXPECT_EQ(j.at("points")[1].at("n"), 32);
  std::filesystem::remove(path);
}

TEST(MatrixChapter, TheSweepChoosesItsOwnSizes) {
  Chapter a(kInfo, {.sweep = true});
  a.add(variant("add", Op::add, false));
  EXPECT_THROW(run(a, {"--sweep", "paper", "--n", "64"}), UsageError);
  Chapter b(kInfo, {.sweep = true});
  b.add(variant("add", Op::add, false));
  EXPECT_THROW(run(b, {"--sweep", "huge"}), UsageError);
  Chapter c(kInfo);  // a chapter without the sweep has no such option
  c.add(variant("add", Op::add, false));
  EXPECT_THROW(run(c, {"--sweep", "paper"}), UsageError);
}

TEST(MatrixChapter, BadSizesAreUsageErrors) {
  Chapter a(kInfo);
  a.add(variant("add", Op::add, false));
  EXPECT_THROW(run(a, {"--n", "8", "--rows", "3"}), UsageError);
  Chapter b(kInfo);
  b.add(variant("add", Op::add, false));
  EXPECT_THROW(run(b, {"--n", "50000"}), UsageError);
}

}  // namespace
}  // namespace gpgpu::matrix
