// --tune through a whole run of the chapter (gpgpu::blas::GemmChapter) with a host operation of
// several configurations whose times are made up (no timed assertion: run() returns a fixed time per
// configuration): every configuration is verified before it is timed, the fastest that passes runs
// and is named in the row and the JSON, one that fails its check fails the run, and without
// --tune the first configuration runs untried.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/errors.hpp"

namespace gpgpu::blas {
namespace {

// A configuration: its name, the seconds run() reports per call, and whether it computes C.
struct FakeConfig {
  std::string name;
  double seconds_per_call;
  bool correct;
};

class FakeGemm final : public GemmOperation {
 public:
  explicit FakeGemm(std::vector<FakeConfig> configs) : configs_(std::move(configs)) {}
  void upload(const Operands& in) override {
    in_ = in;
    c_ = matrix::poisoned(Shape{in.a.shape().rows, in.b.shape().cols}, in.a.type());
  }
  double run(int calls) override {
    if (configs_[current_].correct) c_ = naive_product(in_);  // a wrong configuration leaves the poison
    return calls * configs_[current_].seconds_per_call;
  }
  HostMatrix download() override { return c_; }
  [[nodiscard]] std::string launch() const override { return "fake, " + configs_[current_].name; }
  [[nodiscard]] std::vector<std::string> configurations() const override {
    std::vector<std::string> names;
    for (const FakeConfig& c : configs_) names.push_back(c.name);
    return names;
  }
  void configure(std::size_t index) override {
    if (index >= configs_.size()) GemmOperation::configure(index);  // throws
    current_ = index;
  }

 private:
  std::vector<FakeConfig> configs_;
  std::size_t current_ = 0;
  Operands in_;
  HostMatrix c_;
};

GemmVariant fake_variant(std::vector<FakeConfig> configs) {
  GemmVariant v;
  v.info = {.name = "fake_tunable", .backend = Backend::cpu, .description = "a host operation with made-up times per configuration",
            .source = "test_tune.cpp", .timer = "made up"};
  v.opener = cpu_opener;
  v.make = [configs](const GemmSize&, Session&) { return std::make_unique<FakeGemm>(configs); };
  return v;
}

struct Outcome {
  int exit_code;
  nlohmann::json row;  // the variant's row of the JSON results
};

Outcome run_chapter(std::vector<FakeConfig> configs, std::vector<std::string> args) {
  const std::filesystem::path json = std::filesystem::path(::testing::TempDir()) / "test_tune.json";
  std::filesystem::remove(json);
  GemmChapter chapter(ChapterInfo{"10", "test_tune", "tuning", "none"});
  chapter.add(fake_variant(std::move(configs)));
  args.insert(args.begin(), "test_tune");
  for (const char* a : {"--n", "17", "--k", "33", "--repeat", "2", "--warmup", "0", "--json"}) args.emplace_back(a);
  args.push_back(json.string());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  const int code = chapter.run(static_cast<int>(argv.size()), argv.data());
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  return {code, j.at("results").at(0)};
}

const std::vector<FakeConfig> kSlowThenFast{{"slow", 2e-3, true}, {"fast", 1e-3, true}, {"middle", 1.5e-3, true}};

TEST(Tune, VerifiesEachAndRunsTheFastest) {
  const Outcome o = run_chapter(kSlowThenFast, {"--tune"});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.row["extra"]["tuned"], "fast");
  ASSERT_EQ(o.row["extra"]["tuning"].size(), 3u);
  for (const auto& t : o.row["extra"]["tuning"]) EXPECT_EQ(t["check"], "PASS") << t;
  // The trial's rate is 2 m n k per call over the made-up time: 2 x 17 x 17 x 33 / 1 ms.
  EXPECT_NEAR(o.row["extra"]["tuning"][1]["gflops"].get<double>(), 2.0 * 17 * 17 * 33 / 1e-3 / 1e9, 1e-9);
  EXPECT_EQ(o.row["launch"], "tuned: fast; fake, fast");
  EXPECT_EQ(o.row["check"], "PASS");
}

TEST(Tune, AConfigurationThatFailsIsNotTimedAndFailsTheRun) {
  std::vector<FakeConfig> configs = kSlowThenFast;
  configs.push_back({"wrong but fastest", 1e-6, false});
  const Outcome o = run_chapter(configs, {"--tune"});
  EXPECT_EQ(o.exit_code, kExitVerificationFailed);
  EXPECT_EQ(o.row["extra"]["tuned"], "fast");
  EXPECT_EQ(o.row["extra"]["tuning"][3]["check"], "FAIL");
  EXPECT_TRUE(o.row["extra"]["tuning"][3]["gflops"].is_null());
  EXPECT_EQ(o.row["check"], "FAIL");
}

TEST(Tune, WithoutTuneTheFirstConfigurationRunsUntried) {
  const Outcome o = run_chapter(kSlowThenFast, {});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_FALSE(o.row["extra"].contains("tuning"));
  EXPECT_EQ(o.row["launch"], "fake, slow");
}

}  // namespace
}  // namespace gpgpu::blas
